"""One change, one observation: the watcher and a rescan beside it do not both report it.

Found by the soak's exactly-once count (issue 17): a write whose events watchfiles split
over two batches was reported as created, then modified with the same content; and a
deletion still in the watcher's debounce when the start-up rescan walked the tree was
reported by both.
"""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

from watchfiles import Change

from graph.models import Observation, ObservationType
from graph.settings import DEFAULT_IGNORE_PATTERNS
from graph.store.memory import Memory
from graph.watch.changes import Seen, translate_changes
from graph.watch.files import PathFilter
from graph.watch.recent import RecentReports
from graph.watch.rescan import rescan

FILTER = PathFilter(DEFAULT_IGNORE_PATTERNS)


def _translate(root: Path, raw: list[tuple[Change, str]], known: dict[str, Seen]) -> list[str]:
    translation = translate_changes(
        raw, root=root, known=known, path_filter=FILTER, agent_id="a", max_hash_bytes=1 << 20
    )
    for path, seen in translation.updates.items():
        if seen is None:
            known.pop(path, None)
        else:
            known[path] = seen
    return [f"{o.type.value} {o.path}" for o in translation.observations]


def test_the_tail_of_a_write_in_the_next_batch_is_not_a_second_change(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text("round 1\n")
    known: dict[str, Seen] = {}
    assert _translate(tmp_path, [(Change.added, str(note))], known) == ["file_created note.md"]
    # The write's close came after the debounce cut: same file, same content.
    assert _translate(tmp_path, [(Change.modified, str(note))], known) == []
    with note.open("a") as handle:
        handle.write("more\n")
    assert _translate(tmp_path, [(Change.modified, str(note))], known) == ["file_modified note.md"]


def _watcher_deleted(memory: Memory, path: str) -> Observation:
    return Observation(agent_id=memory.agent_id, type=ObservationType.FILE_DELETED, path=path)


async def test_a_rescan_leaves_out_what_the_watcher_reports_meanwhile(
    tmp_path: Path, memory: Memory
) -> None:
    for name in ("seen.md", "missed.md", "edited.md"):
        (tmp_path / name).write_text(name)
    first = await rescan(tmp_path, memory, FILTER, max_hash_bytes=1 << 20)
    await memory.record_observations(first.observations)
    for name in ("seen.md", "missed.md"):
        (tmp_path / name).unlink()
    (tmp_path / "edited.md").write_text("edited")

    recent = RecentReports(settle_s=0.5)
    scan = asyncio.create_task(
        rescan(tmp_path, memory, FILTER, max_hash_bytes=1 << 20, recent=recent)
    )
    await asyncio.sleep(0.2)  # the rescan has walked the tree and waits for the watcher
    # The watcher reports one deletion, and the edit with other content than the disk's.
    stale = Observation(
        agent_id=memory.agent_id,
        type=ObservationType.FILE_MODIFIED,
        path="edited.md",
        content_hash="0" * 64,
    )
    recent.note([_watcher_deleted(memory, "seen.md"), stale])
    result = await scan
    assert sorted(f"{o.type.value} {o.path}" for o in result.observations) == [
        "file_deleted missed.md",
        "file_modified edited.md",
    ]
    assert recent._marks == []  # released: old notes can be forgotten again


async def test_what_the_watcher_reported_before_the_rescan_began_is_not_compared(
    tmp_path: Path, memory: Memory
) -> None:
    (tmp_path / "a.md").write_text("a")
    recent = RecentReports(settle_s=0.05)
    # The same outcome, reported before the rescan began: whatever the graph holds now
    # already accounts for it, so the rescan's comparison stands.
    created = Observation(
        agent_id=memory.agent_id,
        type=ObservationType.FILE_CREATED,
        path="a.md",
        content_hash=hashlib.sha256(b"a").hexdigest(),
    )
    recent.note([created])
    result = await rescan(tmp_path, memory, FILTER, max_hash_bytes=1 << 20, recent=recent)
    assert [o.path for o in result.observations] == ["a.md"]
