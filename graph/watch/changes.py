"""Turning one batch of raw watchfiles changes into file observations.

watchfiles reports what the kernel said, path by path: a rename is a delete
and an add, a directory moved or created is one event for the directory
alone, an editor's save-by-rename is an add of a path that already existed.
This module reconciles a batch against the disk as it is now and against what
the watcher has seen so far (a path → :class:`Seen` map), and says what
happened in terms of files: created, modified, deleted or moved.

It does blocking I/O (stat, hashing), so the watcher runs it in a thread; it
never mutates the map it is given but returns the updates to apply.
"""

from __future__ import annotations

import os
import stat
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from watchfiles import Change

from graph.models.observe import Observation, ObservationType
from graph.watch.files import (
    PathFilter,
    file_observation,
    inside_root,
    inspect_file,
    walk_files,
)

SOURCE = "watcher"


@dataclass(frozen=True)
class Seen:
    """What the watcher last saw at a path: enough to recognise the same file elsewhere.

    A rename keeps the inode and the modification time, so a path that
    disappeared and one that appeared with equal ``(device, inode, mtime_ns)``
    are one file moved. The time guards against the file system handing a
    freed inode number straight to a new file.
    """

    device: int
    inode: int
    size: int
    mtime_ns: int
    # The content the watcher last reported, when it read it; not part of equality.
    content_hash: str | None = field(default=None, compare=False)

    @classmethod
    def of(cls, st: os.stat_result) -> Seen:
        """The identity of the file ``st`` describes."""
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)

    @property
    def identity(self) -> tuple[int, int, int]:
        """What survives a rename unchanged."""
        return self.device, self.inode, self.mtime_ns


@dataclass
class Translation:
    """A batch's observations and how the watcher's map of seen files changes."""

    observations: list[Observation] = field(default_factory=list)
    # path → what is there now, or None when the path is to be forgotten
    updates: dict[str, Seen | None] = field(default_factory=dict)


def prime(
    root: Path, path_filter: PathFilter, odd_names: list[str] | None = None
) -> dict[str, Seen]:
    """Stat every file below ``root`` (no reading), so later events can be matched.

    Names that are not valid UTF-8 or hold a control character are skipped, their escaped
    paths put in ``odd_names``.
    """
    return {rel: Seen.of(st) for rel, st in walk_files(root, path_filter, odd_names=odd_names)}


def translate_changes(
    changes: Iterable[tuple[Change, str]],
    *,
    root: Path,
    known: Mapping[str, Seen],
    path_filter: PathFilter,
    agent_id: str,
    max_hash_bytes: int,
) -> Translation:
    """Reconcile one batch of raw changes with the disk and with ``known``.

    ``root`` must already be resolved. Paths outside it (through a symlinked
    directory leading out) and ignored paths are dropped. An added directory
    stands for every file below it; a deleted path stands for every known file
    below it. A known path that is no longer a regular file (deleted, or
    replaced by a symlink or a directory) is deleted; a file that appeared with
    the identity of one that disappeared in the same batch was moved; an add
    of a known path is a modification (editors save by rename), unless nothing
    about the file changed, which happens when an added directory's expansion
    already reported a file the kernel then reports again. Deletions of paths
    the watcher never saw produce nothing: an editor's temporary file made and
    removed, or anything it was never told about (the rescan covers those).
    """
    kinds: dict[str, set[Change]] = defaultdict(set)
    for change, raw in changes:
        rel = _relative(root, Path(raw))
        if rel is not None and not path_filter.is_ignored(rel):
            kinds[rel].add(change)
    present, maybe_gone = _present_and_maybe_gone(kinds, root, known, path_filter)
    gone = {p: known[p] for p in maybe_gone - present.keys() if not _is_file(root / p)}
    origins = {seen.identity: p for p, seen in gone.items()}
    result = Translation()
    for rel, st in sorted(present.items()):
        now = Seen.of(st)
        origin = origins.pop(now.identity, None)
        if origin is not None:
            del gone[origin]
            result.updates[origin] = None
        kind_ = _kind(rel, now, origin, known, kinds)
        if kind_ is None:
            continue
        state = inspect_file(root, rel, max_hash_bytes)
        if state is None:
            continue  # gone again already; its delete event will follow
        if (
            kind_ is ObservationType.FILE_MODIFIED
            and known[rel] == now
            and state.content_hash is not None
            and state.content_hash == known[rel].content_hash
        ):
            # The tail of a write whose first events came in the batch before: nothing new.
            continue
        result.updates[rel] = replace(now, content_hash=state.content_hash)
        result.observations.append(
            file_observation(agent_id, kind_, rel, state, source=SOURCE, from_path=origin)
        )
    _record_deletions(result, sorted(gone), agent_id)
    result.observations.sort(key=lambda o: o.path or "")
    return result


def _record_deletions(result: Translation, paths: Iterable[str], agent_id: str) -> None:
    for rel in paths:
        result.updates[rel] = None
        result.observations.append(
            file_observation(agent_id, ObservationType.FILE_DELETED, rel, source=SOURCE)
        )


def _present_and_maybe_gone(
    kinds: Mapping[str, set[Change]],
    root: Path,
    known: Mapping[str, Seen],
    path_filter: PathFilter,
) -> tuple[dict[str, os.stat_result], set[str]]:
    """The regular files the batch names (added folders expanded), and known paths to check."""
    present: dict[str, os.stat_result] = {}
    maybe_gone: set[str] = set()
    gone_dirs: set[str] = set()
    for rel, kind in kinds.items():
        st = _lstat(root / rel)
        if st is not None and stat.S_ISDIR(st.st_mode):
            if kind == {Change.modified}:
                continue  # a directory's own metadata; its files report themselves
            present.update(_expand(root, path_filter, rel))
        elif st is not None and stat.S_ISREG(st.st_mode):
            present[rel] = st
        if rel in known:
            maybe_gone.add(rel)
        elif st is None or not stat.S_ISREG(st.st_mode):
            gone_dirs.add(rel)  # it may have been (or replaced) a directory of known files
    if gone_dirs:
        maybe_gone.update(p for p in known if any(a in gone_dirs for a in _ancestors(p)))
    return present, maybe_gone


def _kind(
    rel: str,
    now: Seen,
    origin: str | None,
    known: Mapping[str, Seen],
    kinds: Mapping[str, set[Change]],
) -> ObservationType | None:
    """What a present file's change is: moved, created, modified, or nothing new (None)."""
    if origin is not None:
        return ObservationType.FILE_MOVED
    if rel not in known:
        return ObservationType.FILE_CREATED
    if known[rel] != now or Change.modified in kinds.get(rel, ()):
        return ObservationType.FILE_MODIFIED
    return None


def _relative(root: Path, path: Path) -> str | None:
    # Events name paths below the (resolved) root as written; inside_root checks that the
    # folders on the way stay inside it. The last component is not followed, so a symlink is
    # looked at as a symlink (never a file), and a file replaced by a symlink reads as deleted.
    try:
        rel = path.relative_to(root).as_posix()
        return rel if rel != "." and inside_root(root, rel) is not None else None
    except ValueError:  # not below the root (PathOutsideRootError is a ValueError too)
        return None


def _expand(root: Path, path_filter: PathFilter, rel: str) -> dict[str, os.stat_result]:
    try:
        return dict(walk_files(root, path_filter, under=rel))
    except OSError:
        return {}  # gone again, or unreadable; later events or the rescan will tell


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except OSError:
        return None


def _is_file(path: Path) -> bool:
    st = _lstat(path)
    return st is not None and stat.S_ISREG(st.st_mode)


def _ancestors(rel: str) -> Iterable[str]:
    index = rel.rfind("/")
    while index > 0:
        rel = rel[:index]
        yield rel
        index = rel.rfind("/")
