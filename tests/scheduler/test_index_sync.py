"""The index sync marks its start before waiting for the writer; a busy writer skips the run."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

from cognition.sense.classify import ObservationClassifier
from cognition.sense.ingest import Ingestor
from graph.models import Observation, ObservationType
from graph.settings import DEFAULT_IGNORE_PATTERNS, SenseSettings
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from graph.watch.recent import RecentReports
from scheduler.index_sync import IndexSync

FILTER = PathFilter(list(DEFAULT_IGNORE_PATTERNS))


def _created(memory: Memory, path: str, content: bytes) -> Observation:
    return Observation(
        agent_id=memory.agent_id,
        type=ObservationType.FILE_CREATED,
        path=path,
        content_hash=hashlib.sha256(content).hexdigest(),
    )


def _sync(root: Path, memory: Memory, recent: RecentReports, idle_wait_s: float) -> IndexSync:
    # No writer task runs: what is queued stays queued until the test flushes it.
    ingestor = Ingestor(memory, ObservationClassifier(SenseSettings()))
    return IndexSync(
        root,
        memory,
        ingestor,
        FILTER,
        max_hash_bytes=1 << 20,
        recent=recent,
        idle_wait_s=idle_wait_s,
    )


async def test_a_rescan_is_skipped_while_the_writer_stays_busy(
    tmp_path: Path, memory: Memory
) -> None:
    (tmp_path / "a.md").write_text("a")
    recent = RecentReports(settle_s=0.05)
    sync = _sync(tmp_path, memory, recent, idle_wait_s=0.2)
    sync.ingestor.submit([_created(memory, "queued.md", b"q")])

    assert await sync.run() is None
    assert sync.last_error is not None and "stored nothing for 0.2 s" in sync.last_error
    assert sync.ingestor.queue_depth == 1  # the rescan queued nothing of its own
    assert recent._marks == []  # the mark taken before the wait is released


async def test_what_the_watcher_reports_while_the_sync_waits_is_not_observed_again(
    tmp_path: Path, memory: Memory
) -> None:
    recent = RecentReports(settle_s=0.05)
    sync = _sync(tmp_path, memory, recent, idle_wait_s=10.0)
    (tmp_path / "queued.md").write_bytes(b"q")
    sync.ingestor.submit([_created(memory, "queued.md", b"q")])
    run = asyncio.create_task(sync.run())
    await asyncio.sleep(0.1)  # the sync is waiting for the writer
    # The watcher reports a new file; its write has not reached the graph when the
    # rescan reads it, so only the mark taken before the wait keeps it from a second report.
    (tmp_path / "a.md").write_text("a")
    recent.note([_created(memory, "a.md", b"a")])
    await sync.ingestor.flush()
    result = await run
    assert result is not None
    assert [o.path for o in result.observations] == []
    assert recent._marks == []
