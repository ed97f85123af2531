"""Looking at files under the watched root: ignore rules, containment, inspection, walks.

Shared by :mod:`graph.watch.watcher` (one file at a time, as events arrive) and the
rescan job (the whole tree), so both see the same files under the same paths:
paths are relative to the root, POSIX style, and symbolic links are never
files of their own; and both observe a file the same way (:func:`file_observation`).
"""

from __future__ import annotations

import fnmatch
import hashlib
import logging
import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import BinaryIO

from graph.errors import PathOutsideRootError
from graph.models.observe import Observation, ObservationType
from graph.watch.gitignore import GitIgnore, match_components

logger = logging.getLogger(__name__)

BINARY_SNIFF_BYTES = 8 * 1024
_CHUNK = 1024 * 1024
# O_NOFOLLOW: the file opened is the one that was stat'ed, not whatever a symlink
# swapped in since points to. O_NONBLOCK: a FIFO swapped in cannot hang the reader.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


class PathFilter:
    """Decides which relative paths are ignored, from gitignore-like patterns.

    Each pattern is one of:

    * a name pattern, with no ``/`` except a trailing ``/`` or ``/**``
      (``.git``, ``*.pyc``, ``node_modules``, ``logs/``): matched by
      :func:`fnmatch.fnmatchcase` against every single component of the path,
      at any depth;
    * an anchored pattern, with a ``/`` in the middle (``docs/build``,
      ``src/*.tmp``, ``a/**/b``) or a leading ``/`` (``/dist``): matched
      against the path from the root, component by component, so ``*`` never
      crosses a ``/``; a ``**`` component matches any number of components.

    A trailing ``/`` or ``/**`` means "this directory and everything below"; as
    every pattern already covers everything below what it matches (see below),
    ``logs``, ``logs/`` and ``logs/**`` ignore the same paths. Matching is pure
    string work, with no I/O, so it also answers for paths that no longer exist;
    that is why ``logs/`` also matches a *file* named ``logs``.

    A path is ignored if it, or any of its parent directories, matches.
    Matching is case-sensitive. Blank patterns (also ``/`` alone) are skipped:
    taken literally they would name the root and ignore everything. With
    ``gitignore`` (the root's ``.gitignore``), what it leaves out is ignored too.
    """

    def __init__(self, patterns: Sequence[str], gitignore: GitIgnore | None = None) -> None:
        """Compile ``patterns`` once; :meth:`is_ignored` is called for every event."""
        self.gitignore = gitignore
        names: list[str] = []
        self._anchored: list[tuple[str, ...]] = []
        for raw in patterns:
            pattern = raw.strip()
            while pattern.endswith("/**"):
                pattern = pattern[:-3]
            pattern = pattern.rstrip("/")
            anchored = pattern.startswith("/") or "/" in pattern
            parts = tuple(p for p in pattern.split("/") if p and p != ".")
            if not parts:
                continue
            if anchored:
                self._anchored.append(parts)
            else:
                names.append(parts[0])
        self._patterns = tuple(patterns)
        # One alternation of fnmatch's own translations: a single regex call per component.
        self._names = (
            re.compile("|".join(f"(?:{fnmatch.translate(n)})" for n in names)) if names else None
        )

    def __repr__(self) -> str:
        return f"PathFilter({list(self._patterns)!r})"

    def is_ignored(self, rel_path: str) -> bool:
        """True if ``rel_path`` (relative to the root, ``/``-separated) or a parent is ignored.

        The root itself (``""`` or ``"."``) is never ignored.
        """
        parts = tuple(p for p in rel_path.split("/") if p and p != ".")
        if self._names is not None and any(self._names.match(p) for p in parts):
            return True
        if self.gitignore is not None and self.gitignore.is_ignored(rel_path):
            return True
        return any(
            match_components(pattern, parts[:depth])
            for pattern in self._anchored
            for depth in range(1, len(parts) + 1)
        )


def check_relative_path(path: str) -> PurePosixPath:
    """``path`` as a relative path below a root; :class:`PathOutsideRootError` (a ValueError)
    naming the problem when it is empty, holds a control character, is absolute (``/``,
    ``\\``, ``~``, a drive) or climbs out with ``..``."""
    if not path:
        raise PathOutsideRootError("the path is empty")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in path):
        raise PathOutsideRootError(f"the path {path!r} contains a control character")
    windows = PureWindowsPath(path)
    if path.startswith(("/", "\\", "~")) or windows.drive or windows.root:
        raise PathOutsideRootError(
            f"the path {path!r} is absolute; paths must be relative to the root"
        )
    if ".." in re.split(r"[\\/]", path):
        raise PathOutsideRootError(
            f"the path {path!r} contains '..'; paths must stay inside the root"
        )
    pure = PurePosixPath(path)
    if not pure.parts:
        raise PathOutsideRootError(f"the path {path!r} names the root itself, not a file below it")
    return pure


def inside_root(root: Path, rel_path: str) -> Path | None:
    """``root / rel_path`` when its folders, symlinks followed, stay inside ``root``.

    The one containment check of Nous. None when a folder on the way is a
    symlink leading out of the root (or a symlink loop); the last component is
    not followed, so a caller sees a symlink as a symlink. Raises
    :class:`PathOutsideRootError` when ``rel_path`` itself is not a relative
    path below the root (see :func:`check_relative_path`).
    """
    path = root / check_relative_path(rel_path)
    try:
        base, parent = root.resolve(), path.parent.resolve()
    except OSError:  # a symlink loop
        return None
    if parent != base and not parent.is_relative_to(base):
        return None
    return path


@dataclass(frozen=True)
class FileState:
    """What one regular file under the root looks like now.

    ``content_hash`` is the SHA-256 hex digest of the content, or None when
    the file is bigger than the hash limit (its ``size`` says so; nothing else
    is needed) or could not be read (then ``error`` says why). ``binary`` is
    true when a NUL byte appears in the first 8 KiB.
    """

    path: str
    size: int
    mtime: float
    inode: int
    content_hash: str | None
    binary: bool
    error: str | None


def file_observation(
    agent_id: str,
    kind: ObservationType,
    path: str,
    state: FileState | None = None,
    *,
    source: str,
    from_path: str | None = None,
) -> Observation:
    """The observation of a file at ``path`` as the watcher or the rescan (``source``) saw it.

    ``state`` is the file as it is now (None for a file that is gone);
    ``from_path`` is where a moved file was before.
    """
    metadata: dict[str, object] = {"source": source}
    if from_path is not None:
        metadata["from_path"] = from_path
    if state is None:
        return Observation(agent_id=agent_id, type=kind, path=path, metadata=metadata)
    if state.binary:
        metadata["binary"] = True
    if state.error is not None:
        metadata["error"] = state.error
    return Observation(
        agent_id=agent_id,
        type=kind,
        path=path,
        content_hash=state.content_hash,
        size=state.size,
        mtime=state.mtime,
        metadata=metadata,
    )


def inspect_file(root: Path, rel_path: str, max_hash_bytes: int) -> FileState | None:
    """Stat, sniff and hash the regular file at ``root / rel_path``.

    Returns None when nothing is there any more, when it is not a regular file
    (directories, symlinks, FIFOs) or when the path leads out of the root
    through a symlinked directory. A file that exists but cannot be read gets a
    state with ``error`` set and no hash; no exception escapes for it.

    Raises :class:`PathOutsideRootError` when ``rel_path`` itself is not a
    relative path below the root (absolute, empty, or with ``..``): that is a
    caller's mistake, not a state of the disk.
    """
    path = inside_root(root, rel_path)
    if path is None:
        return None  # a parent directory is a symlink leading out of the root
    try:
        st = os.lstat(path)
    except OSError as exc:
        logger.debug("cannot stat %s: %s", rel_path, exc.strerror)
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return _state(rel_path, st, None, False, f"cannot open: {exc.strerror}")
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(handle.fileno())
        if not stat.S_ISREG(st.st_mode):
            return None
        try:
            return _read(handle, rel_path, st, max_hash_bytes)
        except OSError as exc:
            return _state(rel_path, st, None, False, f"cannot read: {exc.strerror}")


def _read(handle: BinaryIO, rel_path: str, st: os.stat_result, max_hash_bytes: int) -> FileState:
    digest = hashlib.sha256()
    first = handle.read(BINARY_SNIFF_BYTES)
    binary = b"\0" in first
    if st.st_size > max_hash_bytes:
        return _state(rel_path, st, None, binary, None)
    total = len(first)
    digest.update(first)
    while chunk := handle.read(_CHUNK):
        total += len(chunk)
        if total > max_hash_bytes:  # grew while being read
            return _state(rel_path, st, None, binary, None)
        digest.update(chunk)
    return _state(rel_path, st, digest.hexdigest(), binary, None)


def _state(
    rel_path: str, st: os.stat_result, digest: str | None, binary: bool, error: str | None
) -> FileState:
    return FileState(rel_path, st.st_size, st.st_mtime, st.st_ino, digest, binary, error)


def walk_files(
    root: Path,
    path_filter: PathFilter,
    under: str | None = None,
    *,
    odd_names: list[str] | None = None,
) -> Iterator[tuple[str, os.stat_result]]:
    """Every regular file below ``root``: its relative POSIX path and its ``lstat``.

    Ignored directories are not entered. Symlinks are never followed and never
    yielded, not even those whose target is inside the root: that target is
    yielded under its own path, so every file has exactly one path (the key of
    its ``File`` node) and a link leading out of the root cannot leak anything.

    ``under`` (a relative path) limits the walk to that directory, with paths
    still relative to ``root``; the watcher uses it to expand a directory that
    appeared. A directory that vanishes or cannot be listed below the start is
    skipped (the latter with one warning per process); the start itself failing
    raises :class:`OSError`, so a rescan cannot mistake a missing root for an
    empty one. A name that is not valid UTF-8 or holds a control character (file or
    directory) is skipped: its escaped path (:func:`escape_path`) goes to ``odd_names``
    when given.
    """
    start = root / under if under else root
    prefix = PurePosixPath(under).as_posix() + "/" if under else ""
    with os.scandir(start) as entries:
        listed = list(entries)
    yield from _walk_entries(listed, prefix, path_filter, odd_names)


def _walk_entries(
    entries: list[os.DirEntry[str]],
    prefix: str,
    path_filter: PathFilter,
    odd_names: list[str] | None,
) -> Iterator[tuple[str, os.stat_result]]:
    for entry in sorted(entries, key=lambda e: e.name):
        rel = prefix + entry.name
        if not is_plain_name(entry.name):
            if odd_names is not None:
                odd_names.append(escape_path(rel))
            continue
        if path_filter.is_ignored(rel):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                with os.scandir(entry.path) as children:
                    listed = list(children)
                yield from _walk_entries(listed, rel + "/", path_filter, odd_names)
            elif entry.is_file(follow_symlinks=False):
                yield rel, entry.stat(follow_symlinks=False)
        except (FileNotFoundError, NotADirectoryError):
            continue  # vanished while we looked
        except OSError as exc:
            warn_once(rel, f"cannot list {rel}: {exc.strerror}; its files are left out")


_WARNED: set[str] = set()


def warn_once(key: str, message: str) -> None:
    """Log ``message`` at WARNING the first time ``key`` comes up in this process.

    An unreadable folder is met by every rescan and every re-arm of the
    watcher; one warning naming it is enough.
    """
    if key not in _WARNED:
        _WARNED.add(key)
        logger.warning("%s", message)


def is_plain_name(name: str) -> bool:
    """Whether a name from the file system is valid UTF-8 (no surrogate escapes) without a
    control character (a newline or tab in a name is legal on POSIX, but no path Nous keeps
    may hold one: :func:`check_relative_path` refuses it)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(ord(ch) < 32 or ord(ch) == 127 for ch in name)


def escape_path(path: str | bytes) -> str:
    """A path as printable text: valid UTF-8 kept, every other byte and every control
    character as ``\\xNN``.

    Never raises and never holds a surrogate or a line break, so it can go into a node and a
    log line without forging another.
    """
    text = os.fsencode(path).decode("utf-8", "backslashreplace")
    return "".join(f"\\x{ord(ch):02x}" if ord(ch) < 32 or ord(ch) == 127 else ch for ch in text)
