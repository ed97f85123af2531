"""Rescan: compare the disk with the ``File`` nodes and observe every difference.

The watcher sees changes only while it runs, and watchfiles drops events
when the kernel queue overflows. The rescan is the safety net: it walks the
root, compares each file's size and mtime with what the memory holds, hashes
only the files whose size or mtime moved, and returns an observation for
every real difference (``metadata.source = "rescan"``). A file whose
content hash did not change is only "touched": its new size and mtime are
stored so the next rescan does not hash it again.

It is the first half of the periodic index sync job, and runs once when the
daemon starts, so changes made while it was down are not lost.

The first look at a root (the memory knows no file under it and never took a
baseline) is the baseline, when the caller asks for one: the files found are
stored as ``File`` nodes with no observation, since what was there before Nous
looked is not a change, and a ``baseline_recorded`` event says how many.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from graph.models import FileRecord, Observation, ObservationType
from graph.store.memory import Memory
from graph.watch.files import FileState, PathFilter, file_observation, inspect_file, walk_files
from graph.watch.oddnames import odd_name_observation
from graph.watch.recent import RecentReports

SOURCE = "rescan"
BASELINE_EVENT = "baseline_recorded"


@dataclass
class RescanResult:
    """What one rescan found."""

    observations: list[Observation] = field(default_factory=list)
    touched: list[FileRecord] = field(default_factory=list)
    files_seen: int = 0
    files_hashed: int = 0
    baseline: int | None = None
    """Files stored as the baseline on a first look; None when this was not one."""


async def rescan(
    root: Path,
    memory: Memory,
    path_filter: PathFilter,
    *,
    max_hash_bytes: int,
    recent: RecentReports | None = None,
    since: float | None = None,
    baseline: bool = False,
) -> RescanResult:
    """Walk ``root``, compare with the memory, store touches, return the observations.

    The observations are returned, not written: the caller classifies them
    and writes them through the same path as the watcher's. With ``recent``
    (the running watcher's), what the watcher reports meanwhile is left out:
    from ``since``, a mark the caller took (and releases) before it waited for
    the watcher's earlier reports to reach the graph, else from now. With
    ``baseline``, a first look stores what it found as the baseline
    (:func:`_first_look`) and returns no observation of it.
    """
    mark = recent.mark() if recent is not None and since is None else None
    since = since if mark is None else mark
    try:
        known = await memory.file_records()
        first = baseline and not known and not await memory.events.events(BASELINE_EVENT, 1)
        result = await asyncio.to_thread(
            compare_tree, root, known, path_filter, memory.agent_id, max_hash_bytes
        )
        await memory.touch_files(result.touched)
        if recent is not None and since is not None:
            result.observations = await recent.not_reported(result.observations, since)
        if first:
            await _first_look(root, memory, result)
    finally:
        if recent is not None and mark is not None:
            recent.release(mark)
    return result


async def _first_look(root: Path, memory: Memory, result: RescanResult) -> None:
    """Store the files ``result`` found as created as the baseline; keep only other findings.

    What the watcher reported meanwhile is already left out (its own observation
    records it as a change); an odd name is still observed, as it is a warning.
    """
    created = [o for o in result.observations if o.type is ObservationType.FILE_CREATED]
    result.observations = [
        o for o in result.observations if o.type is not ObservationType.FILE_CREATED
    ]
    result.baseline = await memory.record_baseline(created)
    await memory.events.emit(BASELINE_EVENT, {"root": str(root), "files": result.baseline})


def compare_tree(
    root: Path,
    known: Mapping[str, FileRecord],
    path_filter: PathFilter,
    agent_id: str,
    max_hash_bytes: int,
) -> RescanResult:
    """The differences between the files under ``root`` and ``known`` (blocking I/O)."""
    result = RescanResult()
    unseen = dict(known)
    created: list[FileState] = []
    odd: list[str] = []
    for rel, st in walk_files(root, path_filter, odd_names=odd):
        result.files_seen += 1
        record = unseen.pop(rel, None)
        if record is not None and record.size == st.st_size and record.mtime == st.st_mtime:
            continue
        state = inspect_file(root, rel, max_hash_bytes)
        result.files_hashed += 1
        if state is None:
            continue  # vanished between the walk and the look: the watcher will say so
        if record is None:
            created.append(state)
        elif _same_content(record, state):
            result.touched.append(
                FileRecord(
                    path=rel, content_hash=state.content_hash, size=state.size, mtime=state.mtime
                )
            )
        else:
            result.observations.append(_observe(agent_id, ObservationType.FILE_MODIFIED, state))

    # Files the memory knows that are gone from the disk; a file that is now
    # ignored (the ignore patterns changed) is left as it is, not called deleted.
    gone = {p: r for p, r in unseen.items() if not path_filter.is_ignored(p)}
    moved_from = _pair_moves(created, gone)
    for state in created:
        old = moved_from.get(state.path)
        if old is not None:
            result.observations.append(_observe(agent_id, ObservationType.FILE_MOVED, state, old))
        else:
            result.observations.append(_observe(agent_id, ObservationType.FILE_CREATED, state))
    # Recorded once: the observation's id comes from the name, and writes MERGE on it.
    result.observations.extend(odd_name_observation(agent_id, n, source=SOURCE) for n in odd)
    paired = set(moved_from.values())
    for path in sorted(gone):
        if path not in paired:
            deleted = ObservationType.FILE_DELETED
            result.observations.append(file_observation(agent_id, deleted, path, source=SOURCE))
    return result


def _same_content(record: FileRecord, state: FileState) -> bool:
    if record.content_hash is None or state.content_hash is None:
        return record.size == state.size and state.error is None and record.content_hash is None
    return record.content_hash == state.content_hash


def _pair_moves(created: list[FileState], gone: Mapping[str, FileRecord]) -> dict[str, str]:
    """New path -> old path, where exactly one gone file and one new file share a hash."""
    gone_by_hash: dict[str, list[str]] = {}
    for path, record in gone.items():
        if record.content_hash:
            gone_by_hash.setdefault(record.content_hash, []).append(path)
    new_by_hash: dict[str, list[str]] = {}
    for state in created:
        if state.content_hash:
            new_by_hash.setdefault(state.content_hash, []).append(state.path)
    return {
        new[0]: gone_by_hash[digest][0]
        for digest, new in new_by_hash.items()
        if len(new) == 1 and len(gone_by_hash.get(digest, ())) == 1
    }


def _observe(
    agent_id: str, kind: ObservationType, state: FileState, from_path: str | None = None
) -> Observation:
    return file_observation(agent_id, kind, state.path, state, source=SOURCE, from_path=from_path)
