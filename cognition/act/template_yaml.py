"""Reading a template file's YAML strictly, and saying where it is wrong.

A key given twice in one mapping is an error (plain YAML keeps the last one
silently), and a syntax error is traced to the template whose lines hold it.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_TOP_KEY = re.compile(r"([A-Za-z0-9_-]+)\s*:")


def load_yaml(text: str) -> Any:
    """Parse ``text`` with a safe loader that refuses duplicate keys."""
    return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses a key given twice in one mapping (YAML keeps the last)."""


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[object] = set()
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
            continue
        key = loader.construct_object(key_node)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def yaml_problem(exc: yaml.YAMLError) -> str:
    """What a YAML error says, with its line and column."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        return f"{exc.problem} (line {mark.line + 1}, column {mark.column + 1})"
    return str(exc)


def template_at(text: str, exc: yaml.YAMLError) -> str | None:
    """The template whose lines hold the YAML error, by indentation under ``templates:``."""
    mark = exc.problem_mark if isinstance(exc, yaml.MarkedYAMLError) else None
    if mark is None:
        return None
    inside, depth, current = False, None, None
    for line in text.splitlines()[: mark.line + 1]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            inside, current = stripped.startswith("templates:"), None
            continue
        if inside and (depth is None or indent == depth):
            depth = indent
            found = _TOP_KEY.match(stripped)
            current = found.group(1) if found else current
    return current
