"""The daemon's jobs and long-running tasks, and their registration with APScheduler.

Jobs exist only once they do something: today the periodic index sync and
the status line. The watcher is a long-running task, not a job.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import TextIO

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from cognition.sense.ingest import Ingestor
from graph.errors import GraphError
from graph.models import Observation, ObservationType, utc_now
from graph.settings import ScheduleSettings
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from graph.watch.rescan import RescanResult, rescan
from graph.watch.watcher import FileWatcher

log = logging.getLogger(__name__)

IDLE_WAIT_S = 30.0


class IndexSync:
    """The periodic index sync: rescan the tree against the ``File`` nodes."""

    def __init__(
        self,
        root: Path,
        memory: Memory,
        ingestor: Ingestor,
        path_filter: PathFilter,
        *,
        max_hash_bytes: int,
    ) -> None:
        self.root = root
        self.memory = memory
        self.ingestor = ingestor
        self.path_filter = path_filter
        self.max_hash_bytes = max_hash_bytes
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

    async def _run(self, announce: bool) -> RescanResult | None:
        # What the spool held at start, and what the watcher queued, must be in the
        # graph first, or the rescan would observe those changes a second time.
        await self.ingestor.wait_replayed()
        await self.ingestor.wait_idle(IDLE_WAIT_S)
        try:
            result = await rescan(
                self.root, self.memory, self.path_filter, max_hash_bytes=self.max_hash_bytes
            )
        except (GraphError, OSError) as exc:
            self.last_error = f"index sync: {exc}"
            log.error("%s", self.last_error)
            return None
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
        log.info(
            "index sync: %d files seen, %d hashed, %d changes, %d touched",
            result.files_seen,
            result.files_hashed,
            len(result.observations),
            len(result.touched),
        )
        return result


class StatusLine:
    """A short line at an interval: observations recorded, queue depth, last error."""

    def __init__(
        self,
        ingestor: Ingestor,
        index_sync: IndexSync,
        *,
        out: TextIO,
        decisions: Callable[[], int] | None = None,
        operations: Callable[[], Awaitable[str]] | None = None,
        llm: Callable[[], str] | None = None,
    ) -> None:
        self.ingestor = ingestor
        self.index_sync = index_sync
        self.out = out
        self.decisions = decisions
        # Budget, running executions and open escalations, read from the graph at emit time.
        self.operations = operations
        self.operations_text = ""
        self.llm = llm
        self.part_error: str | None = None  # set by the supervisor when a part dies

    def render(self) -> str:
        """The status text (also used by tests)."""
        stats = self.ingestor.stats
        error = self.part_error or stats.last_error or self.index_sync.last_error or "none"
        decided = f" · decisions {self.decisions()}" if self.decisions else ""
        llm = f" · llm {self.llm()}" if self.llm else ""
        return (
            f"[{datetime.now().strftime('%H:%M:%S')}] observations {stats.recorded}"
            f" (noise dropped {stats.noise_dropped}) · queue {self.ingestor.queue_depth}"
            f"{self.ingestor.spool_status()}{decided}{self.operations_text}{llm}"
            f" · last error: {error}"
        )

    async def emit(self) -> None:
        """Print the status line."""
        if self.operations is not None:
            try:
                self.operations_text = f" · {await self.operations()}"
            except GraphError as exc:
                self.operations_text = f" · operations unknown ({exc})"
        print(self.render(), file=self.out)
        self.out.flush()


def register_jobs(
    scheduler: AsyncIOScheduler,
    schedule: ScheduleSettings,
    index_sync: IndexSync,
    status: StatusLine,
    decide: Callable[[], Awaitable[object]] | None = None,
) -> list[str]:
    """Add the daemon's jobs; return a description of each for the banner."""
    jobs: list[str] = []
    if decide is not None:
        scheduler.add_job(
            decide,
            "interval",
            seconds=schedule.decision_interval_s,
            id="decision_loop",
            max_instances=1,
            coalesce=True,
        )
        jobs.append(f"decision loop (every {schedule.decision_interval_s:g} s)")
    scheduler.add_job(
        index_sync.run,
        CronTrigger.from_crontab(schedule.index_sync_cron),
        kwargs={"announce": True},
        id="index_sync",
        max_instances=1,
        coalesce=True,
        misfire_grace_time=3600,
    )
    scheduler.add_job(
        status.emit,
        "interval",
        seconds=schedule.status_interval_s,
        id="status",
        max_instances=1,
        coalesce=True,
    )
    return [
        *jobs,
        f"index sync (cron '{schedule.index_sync_cron}')",
        f"status line (every {schedule.status_interval_s:g} s)",
    ]


async def watch_into(
    watcher: FileWatcher, ingestor: Ingestor, stop: asyncio.Event, status: StatusLine
) -> None:
    """Feed the watcher's batches to the ingestor until ``stop``.

    A failure propagates: the daemon's supervisor (:mod:`scheduler.supervisor`)
    logs it, shows it in the status line and starts the watcher again.
    """
    async for batch in watcher.watch(stop):
        ingestor.submit(batch)
