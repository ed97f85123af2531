"""The root's ``.gitignore``: what git leaves out, the watch leaves out too (issue 55).

Watch tools people use (watchexec, nodemon, ``jest --watch``) skip what the
repository ignores: build output, virtual environments, caches. Nous reads
the root's own ``.gitignore`` once, at start (``watch.gitignore``, on by
default), with git's rules: a pattern without a ``/`` but a trailing one
matches a name at any depth, one with a ``/`` is anchored at the root, ``**``
spans folders, a trailing ``/`` matches folders only, ``!`` re-includes what
an earlier pattern excluded (the last matching pattern wins), and nothing
below an excluded folder can be re-included. Nested ``.gitignore`` files and
git's global excludes are not read. The file is opened without following a
link, must be a regular file and at most :data:`MAX_BYTES` long; otherwise it
is left out with one warning, never an error that stops the watch.
"""

from __future__ import annotations

import fnmatch
import logging
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

MAX_BYTES = 256 * 1024
_ESCAPED = re.compile(r"\\([^/])")
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def match_components(pattern: tuple[str, ...], parts: tuple[str, ...]) -> bool:
    """Whether ``parts`` (a path's components) match ``pattern``'s, one by one; a ``**``
    component matches any number of components, and ``*`` never crosses a ``/``."""
    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(match_components(rest, parts[i:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and match_components(rest, parts[1:])


@dataclass(frozen=True)
class _Rule:
    parts: tuple[str, ...]
    anchored: bool
    negated: bool
    folders_only: bool

    def matches(self, parts: tuple[str, ...], is_folder: bool) -> bool:
        if self.folders_only and not is_folder:
            return False
        if self.anchored:
            return match_components(self.parts, parts)
        return fnmatch.fnmatchcase(parts[-1], self.parts[0])


def _rule(line: str) -> _Rule | None:
    text = line.rstrip("\n\r")
    if not text.strip() or text.startswith("#"):
        return None
    if not text.endswith("\\ "):
        text = text.rstrip(" ")
    negated = text.startswith("!")
    if negated or text.startswith(("\\!", "\\#")):
        text = text[1:]
    folders_only = text.endswith("/")
    text = text.rstrip("/")
    anchored = "/" in text
    # git's "\c" is the character itself; fnmatch knows no escape, but "[c]" is c literally.
    text = _ESCAPED.sub(lambda m: "!" if m[1] == "!" else f"[{m[1]}]", text)
    parts = tuple(p for p in text.split("/") if p)
    if not parts:
        return None
    return _Rule(parts, anchored, negated, folders_only)


class GitIgnore:
    """The patterns of one ``.gitignore``, in order, as git applies them at the root."""

    def __init__(self, lines: list[str]) -> None:
        """Parse ``lines`` (comments, blanks and bare ``/`` are skipped)."""
        self._rules = [r for r in map(_rule, lines) if r is not None]

    def __len__(self) -> int:
        return len(self._rules)

    @classmethod
    def read(cls, root: Path) -> GitIgnore | None:
        """The root's ``.gitignore``; None when there is none or it cannot be used (warned)."""
        path = root / ".gitignore"
        try:
            fd = os.open(path, _OPEN_FLAGS)
        except FileNotFoundError:
            return None
        except OSError as exc:
            logger.warning("%s is left out: %s", path, exc.strerror)
            return None
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
                too_big = "not a regular file of at most %d bytes"
                logger.warning("%s is left out: " + too_big, path, MAX_BYTES)
                return None
            raw = handle.read(MAX_BYTES + 1)
        return cls(raw.decode("utf-8", "replace").splitlines())

    def is_ignored(self, rel_path: str) -> bool:
        """True if git would leave ``rel_path`` (relative, ``/``-separated) out: it, or a
        folder above it, is excluded by the last pattern that matches it."""
        parts = tuple(p for p in rel_path.split("/") if p and p != ".")
        return any(
            self._excluded(parts[:depth], depth < len(parts)) for depth in range(1, len(parts) + 1)
        )

    def _excluded(self, parts: tuple[str, ...], is_folder: bool) -> bool:
        excluded = False
        for rule in self._rules:
            if rule.matches(parts, is_folder):
                excluded = not rule.negated
        return excluded
