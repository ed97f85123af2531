"""Saying which template a YAML error is in.

The file itself is read by :mod:`graph.yamlfile`, the one YAML reader (no
aliases, a depth limit, no duplicate keys); a syntax error is traced here to
the template whose lines hold it.
"""

from __future__ import annotations

import re

import yaml

_TOP_KEY = re.compile(r"([A-Za-z0-9_-]+)\s*:")


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
