"""Success criteria: declarative checks over the watched root after an action ran.

A template's ``success_criteria`` is a list of checks, each a mapping with one
key; every path is a glob relative to the root (``{{ name }}`` placeholders
take the action's parameter values) and never leaves it:

``exists: GLOB``                       at least one file matches
``changed: GLOB``                      a matching file is new or changed since the run started
``contains: {path: GLOB, text: TEXT}`` a matching file contains TEXT
``parses: {path: GLOB, as: yaml|json}`` every matching file parses (none matching passes)
``max_size: {path: GLOB, bytes: N}``   every matching file is at most N bytes

Nothing is evaluated as code. Files are found without following symlinks, so a
link cannot make a check read outside the root.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from cognition.act.conditions import compile_glob, glob_match
from cognition.act.render import PLACEHOLDER
from graph.watch.files import PathFilter, check_relative_path, walk_files

_STRICT = ConfigDict(extra="forbid", frozen=True)
_GLOB_CHARS = re.compile(r"[*?\[]")
_NO_IGNORES = PathFilter([])
# More than this is not read for "contains" or "parses"; a bigger file fails them.
MAX_READ_BYTES = 10 * 1024 * 1024


class PathText(BaseModel):
    """``contains``: a glob and the text one of its files must contain."""

    model_config = _STRICT
    path: str = Field(min_length=1)
    text: str = Field(min_length=1)


class PathFormat(BaseModel):
    """``parses``: a glob and the format its files must parse as."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    path: str = Field(min_length=1)
    format: Literal["yaml", "json"] = Field(alias="as")


class PathSize(BaseModel):
    """``max_size``: a glob and the size its files must stay under."""

    model_config = _STRICT
    path: str = Field(min_length=1)
    bytes: int = Field(ge=0)


class Criterion(BaseModel):
    """One check: exactly one of its keys is set."""

    model_config = _STRICT
    exists: str | None = None
    changed: str | None = None
    contains: PathText | None = None
    parses: PathFormat | None = None
    max_size: PathSize | None = None

    @model_validator(mode="after")
    def _one_key(self) -> Criterion:
        if sum(getattr(self, kind) is not None for kind in _KINDS) != 1:
            raise ValueError("a success criterion has exactly one of: " + ", ".join(_KINDS))
        return self

    @property
    def kind(self) -> str:
        """The check's key."""
        return next(kind for kind in _KINDS if getattr(self, kind) is not None)

    @property
    def glob(self) -> str:
        """The path glob the check is about (before its placeholders are filled)."""
        value = getattr(self, self.kind)
        return value if isinstance(value, str) else str(value.path)


_KINDS = ("exists", "changed", "contains", "parses", "max_size")


def criterion_problems(criterion: Criterion, names: Sequence[str]) -> list[str]:
    """What is wrong with a criterion's glob, given the placeholder names it may use."""
    problems = [
        f"placeholder '{{{{ {n} }}}}' is not a declared parameter"
        for n in PLACEHOLDER.findall(criterion.glob)
        if n not in names
    ]
    try:
        compile_glob(PLACEHOLDER.sub("x", criterion.glob))
    except ValueError as exc:
        problems.append(str(exc))
    return problems


def resolve_glob(glob: str, params: Mapping[str, str]) -> str:
    """The glob with its placeholders filled; ValueError if a value is missing or climbs out."""

    def value(found: re.Match[str]) -> str:
        name = found.group(1)
        if not params.get(name):
            raise ValueError(f"no value for '{{{{ {name} }}}}' in {glob!r}")
        return params[name]

    filled = PLACEHOLDER.sub(value, glob)
    check_relative_path(filled)
    compile_glob(filled)
    return filled


def matching(root: Path, glob: str) -> dict[str, os.stat_result]:
    """The files under ``root`` that ``glob`` matches (a resolved glob), with their stat."""
    parts = glob.split("/")
    fixed = []
    for part in parts[:-1]:
        if _GLOB_CHARS.search(part) or part == "**":
            break
        fixed.append(part)
    under = "/".join(fixed) or None
    if under is not None:
        start = root / under
        # walk_files follows nothing below its start, but the start is opened as named.
        if not start.is_dir() or not start.resolve().is_relative_to(root.resolve()):
            return {}
    try:
        return {p: st for p, st in walk_files(root, _NO_IGNORES, under) if glob_match(glob, p)}
    except OSError:
        return {}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The files the ``changed`` checks watch, as they were before the run."""

    files: Mapping[str, tuple[int, int]]


def snapshot(root: Path, criteria: Sequence[Criterion], params: Mapping[str, str]) -> Snapshot:
    """(mtime_ns, size) of every file a ``changed`` check could name, taken before the run."""
    files: dict[str, tuple[int, int]] = {}
    for criterion in criteria:
        if criterion.changed is None:
            continue
        try:
            glob = resolve_glob(criterion.changed, params)
        except ValueError:
            continue  # reported by validate()
        for path, st in matching(root, glob).items():
            files[path] = (st.st_mtime_ns, st.st_size)
    return Snapshot(files)


def validate(
    root: Path, criteria: Sequence[Criterion], params: Mapping[str, str], before: Snapshot
) -> tuple[bool, str]:
    """Run every check; (all passed, one line per check saying what it found)."""
    lines: list[str] = []
    passed = True
    for criterion in criteria:
        try:
            ok, said = _check(root, criterion, resolve_glob(criterion.glob, params), before)
        except ValueError as exc:
            ok, said = False, str(exc)
        passed = passed and ok
        lines.append(f"{'PASS' if ok else 'FAIL'} {criterion.kind}: {said}")
    return passed, "\n".join(lines) or "no success criteria"


def _check(root: Path, c: Criterion, glob: str, before: Snapshot) -> tuple[bool, str]:
    found = matching(root, glob)
    if c.exists is not None:
        return bool(found), f"{len(found)} file(s) match {glob}"
    if c.changed is not None:
        changed = [
            p for p, st in found.items() if before.files.get(p) != (st.st_mtime_ns, st.st_size)
        ]
        return bool(changed), f"{len(changed)} file(s) matching {glob} new or changed"
    if c.contains is not None:
        text = c.contains.text
        hits = [p for p in found if text in _read(root, p, found[p])]
        return bool(hits), f"{len(hits)} of {len(found)} file(s) matching {glob} contain {text!r}"
    if c.parses is not None:
        bad = [p for p in found if not _parses(_read(root, p, found[p]), c.parses.format)]
        return not bad, f"{len(found) - len(bad)} of {len(found)} file(s) matching {glob} parse"
    assert c.max_size is not None
    big = [p for p, st in found.items() if st.st_size > c.max_size.bytes]
    return not big, f"{len(big)} file(s) matching {glob} larger than {c.max_size.bytes} bytes"


def _read(root: Path, path: str, st: os.stat_result) -> str:
    if st.st_size > MAX_READ_BYTES:
        return ""
    try:
        fd = os.open(root / path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            return handle.read(MAX_READ_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""


def _parses(text: str, kind: str) -> bool:
    try:
        if kind == "json":
            json.loads(text)
        else:
            yaml.safe_load(text)
    except (ValueError, yaml.YAMLError):
        return False
    return True
