"""The index sync: rescan the watched tree against the ``File`` nodes, once the writer is done.

Run by the ``index_sync`` cron job (:mod:`scheduler.jobs`), at start, after
the watcher missed changes or the spool had room again, and as the
``rescan`` internal action; one run at a time. The rescan's findings
(:func:`graph.watch.rescan.rescan`) go through the ingestor like the
watcher's. Before it looks, the observations already queued must be in the
graph, or the rescan would observe those changes a second time: the run
marks its start (what the watcher reports from then on is left out of its
findings), then waits for the writer, and skips when the writer makes no
progress.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from pathlib import Path

from cognition.act.executors import ExecutionRequest
from cognition.sense.ingest import Ingestor
from graph.errors import GraphError
from graph.models import Observation, ObservationType, utc_now
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from graph.watch.recent import RecentReports
from graph.watch.rescan import RescanResult, rescan

log = logging.getLogger(__name__)

IDLE_WAIT_S = 30.0
MAX_IDLE_WAITS = 10  # a rescan waits at most this many IDLE_WAIT_S for a writer making progress


class IndexSync:
    """The periodic index sync: rescan the tree against the ``File`` nodes.

    With ``baseline`` (``watch.baseline``, on in the daemon) the first look at a
    root records its files as the baseline instead of observing them as created.
    """

    def __init__(
        self,
        root: Path,
        memory: Memory,
        ingestor: Ingestor,
        path_filter: PathFilter,
        *,
        max_hash_bytes: int,
        recent: RecentReports | None = None,
        idle_wait_s: float = IDLE_WAIT_S,
        baseline: bool = False,
    ) -> None:
        self.root = root
        self.memory = memory
        self.ingestor = ingestor
        self.path_filter = path_filter
        self.max_hash_bytes = max_hash_bytes
        self.idle_wait_s = idle_wait_s  # how long the writer may take to store what is queued
        self.recent = recent  # the watcher's: what it reports, the rescan does not repeat
        self.baseline = baseline  # the first look at the root is its baseline, not changes
        self.last_result: RescanResult | None = None
        self.last_run: datetime | None = None
        self.last_error: str | None = None
        # The start-up rescan, the cron job and the internal "rescan" action may
        # overlap; two at once would both observe the same changes.
        self._running = asyncio.Lock()

    async def run(self, *, announce: bool = False) -> RescanResult | None:
        """Rescan once and queue what it found; None if it failed (the error is kept).

        With ``announce`` (the scheduled run) a ``schedule_triggered``
        observation follows, so the decision loop can take up the second half
        of the sync: the ``periodic_index_sync`` template.
        """
        async with self._running:
            return await self._run(announce)

    async def as_action(self, _: ExecutionRequest) -> str:
        """The ``rescan`` internal action: rescan now; a failure is the action's failure."""
        result = await self.run()
        if result is None:
            raise RuntimeError(self.last_error or "index sync failed")
        return f"{result.files_seen} files seen, {len(result.observations)} changes recorded"

    async def _writer_idle(self) -> bool:
        """Wait while the writer stores what is queued; False once a wait passes with no progress.

        A long burst (a spool replay, a gap's backlog) keeps the writer busy for
        longer than one wait, and the rescan that follows a gap is the one that
        matters: it waits on while observations are being stored, up to
        ``MAX_IDLE_WAITS`` waits.
        """
        for _ in range(MAX_IDLE_WAITS):
            before = self.ingestor.stats.recorded
            if await self.ingestor.wait_idle(self.idle_wait_s):
                return True
            if self.ingestor.stats.recorded == before:
                return False
        return False

    async def _run(self, announce: bool) -> RescanResult | None:
        # What the spool held at start, and what the watcher queued, must be in the
        # graph first, or the rescan would observe those changes a second time. The
        # mark comes before the wait: a batch the watcher reports after it is left
        # out of the rescan's findings whether or not the writer has stored it yet.
        since = self.recent.mark() if self.recent is not None else None
        try:
            await self.ingestor.wait_replayed()
            if not await self._writer_idle():
                # What the writer holds is not in the graph, and the rescan would observe
                # it again. The next run (or the rescan action) tries again.
                self.last_error = (
                    "index sync skipped: the observation writer stored nothing"
                    f" for {self.idle_wait_s:g} s and is not done"
                )
                log.warning("%s", self.last_error)
                return None
            result = await rescan(
                self.root,
                self.memory,
                self.path_filter,
                max_hash_bytes=self.max_hash_bytes,
                recent=self.recent,
                since=since,
                baseline=self.baseline,
            )
        except (GraphError, OSError) as exc:
            self.last_error = f"index sync: {exc}"
            log.error("%s", self.last_error)
            return None
        finally:
            if self.recent is not None and since is not None:
                self.recent.release(since)
        self.ingestor.submit(result.observations)
        if announce:
            self.ingestor.submit(
                [
                    Observation(
                        agent_id=self.memory.agent_id,
                        type=ObservationType.SCHEDULE_TRIGGERED,
                        metadata={
                            "job": "index_sync",
                            "files_seen": result.files_seen,
                            "changes": len(result.observations),
                        },
                    )
                ]
            )
        self.last_result, self.last_run = result, utc_now()
        if result.baseline is not None:
            log.info("index sync: first look, baseline: %d files (not changes)", result.baseline)
        log.info(
            "index sync: %d files seen, %d hashed, %d changes, %d touched",
            result.files_seen,
            result.files_hashed,
            len(result.observations),
            len(result.touched),
        )
        return result
