"""Saying where in a templates file a problem is: the template, the key, the line.

The file itself is read by :mod:`graph.yamlfile`, the one YAML reader (no
aliases, a depth limit, no duplicate keys); a syntax error is traced here to
the template whose lines hold it, and every other problem to its line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import yaml
from pydantic import ValidationError

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


def key_line(text: str, template: str, key: str) -> int | None:
    """The 1-based line of ``key`` (dotted, as a problem names it) in ``template``, or None.

    Found by indentation, as a person reads the file: the template's line
    under ``templates:``, then each named part of the key below it (list
    indexes are skipped: the line of the list is close enough). The
    template's own line when a part is not written out.
    """
    lines = text.splitlines()
    start = _template_line(lines, template)
    if start is None:
        return None
    found, indent = start, _indent(lines[start])
    for part in key.split("."):
        if not part or part.isdigit():
            continue
        hit = _child_line(lines, found, indent, part)
        if hit is None:
            break
        found, indent = hit, _indent(lines[hit])
    return found + 1


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _template_line(lines: list[str], template: str) -> int | None:
    inside, depth = False, None
    for number, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = _indent(line)
        if indent == 0:
            inside = stripped.startswith("templates:")
            continue
        if inside and (depth is None or indent == depth):
            depth = indent
            found = _TOP_KEY.match(stripped)
            if found is not None and found.group(1) == template:
                return number
    return None


def _child_line(lines: list[str], parent: int, parent_indent: int, part: str) -> int | None:
    """The first line below ``parent``, inside its block, that starts with ``part:``."""
    for number in range(parent + 1, len(lines)):
        line = lines[number]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if _indent(line) <= parent_indent:
            return None
        found = _TOP_KEY.match(stripped.removeprefix("- "))
        if found is not None and found.group(1) == part:
            return number
    return None


def problem_lines(
    file: str, problems: Iterable[tuple[str, str, str]], text: str | None = None
) -> str:
    """One line per problem: file, template, key, message, and where the file has it."""
    lines = []
    for name, key, message in problems:
        line = key_line(text, name, key) if text is not None else None
        where = f" (line {line})" if line is not None else ""
        lines.append(f"{file}: template {name!r}: {key + ': ' if key else ''}{message}{where}")
    return "\n".join(lines)


def pydantic_problems(exc: ValidationError) -> Iterator[tuple[str, str]]:
    """A validation error as (dotted key, message) pairs, as a templates file names them."""
    for error in exc.errors():
        key = ".".join(str(part) for part in error["loc"])
        if error["type"] == "extra_forbidden":
            yield key, "unknown key"
        else:
            yield key, str(error["msg"]).removeprefix("Value error, ")
