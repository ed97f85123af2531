"""Which Python files import which: the import graph the learned test order reads.

Built with :mod:`ast` from the files under the watched root, never by
importing them. Bounded, as anything that reads a folder a person did not
write for Nous: at most :data:`MAX_FILES` files, none bigger than
:data:`MAX_BYTES`, no symbolic link followed, no hidden or tool folder
entered; a file whose name is not a module name (odd bytes, spaces, dashes),
that is too big, or that does not parse is skipped and counted. A file's
imports are kept by its size and modification time, so a second look parses
only what changed.
"""

from __future__ import annotations

import ast
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILES = 5000
MAX_BYTES = 1_000_000
MAX_DEPTH = 12
"""Folders deep under the root that are still looked in."""
HOPS = 3
"""How far an import is followed through modules that are not a package's ``__init__``."""
_SKIPPED_DIRS = frozenset({"node_modules", "venv", "__pycache__", "build", "dist", "site-packages"})
_PART = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class ImportScan:
    """What one look at the root found: each module file's imports, and what was skipped."""

    imports: dict[str, frozenset[str]] = field(default_factory=dict)
    """Root-relative path of each Python file read -> the dotted modules it imports."""
    modules: dict[str, str] = field(default_factory=dict)
    """Dotted module name -> the root-relative file that defines it."""
    skipped: Counter[str] = field(default_factory=Counter)
    """Why files were left out (``odd name``, ``too big``, ``unparsable``, ``unreadable``,
    ``too many files``), and how many each."""


class ImportGraph:
    """The Python import graph under ``root``, read again (cheaply) at each question."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._parsed: dict[str, tuple[tuple[int, int], frozenset[str]]] = {}

    def scan(self) -> ImportScan:
        """Read the root's Python files (those unchanged since the last scan from memory)."""
        scan = ImportScan()
        for rel, stat in _python_files(self.root, scan.skipped):
            if stat[1] > MAX_BYTES:
                scan.skipped["too big"] += 1
                continue
            parts = rel[:-3].split("/")
            known = self._parsed.get(rel)
            if known is not None and known[0] == stat:
                found: frozenset[str] | None = known[1]
            else:
                found = _imports_of(self.root / rel, parts, scan.skipped)
                if found is not None:
                    self._parsed[rel] = (stat, found)
            if found is None:
                continue
            scan.imports[rel] = found
            for name in _module_names(self.root, parts):
                scan.modules.setdefault(name, rel)
        return scan

    def importers(self, changed: Iterable[str], is_test: Callable[[str], bool]) -> list[str]:
        """The test files that import a changed file, directly or through up to :data:`HOPS`
        modules (not through a package's ``__init__``, which imports everything), nearest first."""
        scan = self.scan()
        users: dict[str, set[str]] = {}
        for rel, names in scan.imports.items():
            for name in names:
                target = scan.modules.get(name)
                if target is not None and target != rel:
                    users.setdefault(target, set()).add(rel)
        found: list[str] = []
        frontier = [p for p in dict.fromkeys(changed) if p in scan.imports]
        seen = set(frontier)
        for _ in range(HOPS):
            after: list[str] = []
            for path in frontier:
                for user in sorted(users.get(path, ())):
                    if user in seen:
                        continue
                    seen.add(user)
                    if is_test(user):
                        found.append(user)
                    elif not user.endswith("__init__.py"):
                        after.append(user)
            frontier = after
        return found


def _python_files(root: Path, skipped: Counter[str]) -> list[tuple[str, tuple[int, int]]]:
    """Root-relative paths of the ``.py`` files to read, with (mtime_ns, size); bounded."""
    out: list[tuple[str, tuple[int, int]]] = []
    pending: list[tuple[Path, str, int]] = [(root, "", 0)]
    while pending:
        folder, prefix, depth = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            skipped["unreadable"] += 1
            continue
        for entry in entries:
            name = entry.name
            if entry.is_dir(follow_symlinks=False):
                if not name.startswith(".") and name not in _SKIPPED_DIRS and depth < MAX_DEPTH:
                    pending.append((Path(entry.path), f"{prefix}{name}/", depth + 1))
                continue
            if not name.endswith(".py") or not entry.is_file(follow_symlinks=False):
                continue
            if not all(_PART.fullmatch(p) for p in f"{prefix}{name[:-3]}".split("/")):
                skipped["odd name"] += 1
                continue
            if len(out) >= MAX_FILES:
                skipped["too many files"] += 1
                continue
            stat = entry.stat(follow_symlinks=False)
            out.append((f"{prefix}{name}", (stat.st_mtime_ns, stat.st_size)))
    return out


def _imports_of(path: Path, parts: Sequence[str], skipped: Counter[str]) -> frozenset[str] | None:
    """The dotted names ``path`` imports (relative imports made absolute), or None if unreadable."""
    try:
        with path.open("rb") as handle:
            source = handle.read(MAX_BYTES + 1)
    except OSError:
        skipped["unreadable"] += 1
        return None
    if len(source) > MAX_BYTES:
        skipped["too big"] += 1
        return None
    try:
        tree = ast.parse(source, filename=str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        skipped["unparsable"] += 1
        return None
    package = list(parts[:-1])  # a module's package; an __init__'s is its own folder too
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, package)
            if base is None:
                continue
            if base:
                names.add(base)
            names.update(
                f"{base}.{a.name}" if base else a.name for a in node.names if a.name != "*"
            )
    return frozenset(names)


def _absolute(module: str | None, level: int, package: list[str]) -> str | None:
    """``from ..x import`` as a dotted name from the root's top; None if it climbs out."""
    if level == 0:
        return module or ""
    if level - 1 > len(package):
        return None
    head = package[: len(package) - (level - 1)]
    return ".".join([*head, *([module] if module else [])])


def _module_names(root: Path, parts: Sequence[str]) -> list[str]:
    """The dotted names a file is imported by: its path from the root, and from each folder
    above it that is not a package (a ``src/`` layout, a folder of scripts)."""
    module = list(parts[:-1]) if parts[-1] == "__init__" else list(parts)
    names = [".".join(module)] if module else []
    for depth in range(1, len(parts) - 1 + (parts[-1] != "__init__")):
        folder = root.joinpath(*parts[:depth])
        if (folder / "__init__.py").is_file():
            break
        rest = module[depth:]
        if rest:
            names.append(".".join(rest))
    return names
