"""The daemon's jobs, registered with APScheduler here and nowhere else.

The decision loop (every ``schedule.decision_interval_s``), the index sync
(``schedule.index_sync_cron``), the status line, the RSI cycle
(``rsi.cycle_interval_s``, at most ``rsi.max_cycles_per_hour``) and the
heuristic pruning (``rsi.prune_cron``); each has a name a person reads, the
one its log lines and the banner use. A run that comes due while the one
before is still in hand is coalesced, quietly (:class:`OneAtATime`). The
index sync's work is :class:`scheduler.index_sync.IndexSync`. The watcher is
a long-running task, not a job.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TextIO

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from cognition.recall.vectors import VectorJob
from cognition.sense.history import HistoryReader
from cognition.sense.ingest import Ingestor
from cognition.text import plain_text
from graph.errors import GraphError
from graph.models import RSICycle
from graph.settings import EmbeddingSettings, HistorySettings, RSISettings, ScheduleSettings
from graph.store.commits import CommitStore
from graph.watch.watcher import FileWatcher
from rsi.engine import RSIEngine
from rsi.prune import Pruner, PruneReport
from scheduler.index_sync import IndexSync
from scheduler.supervisor import quiet_on_cancel

log = logging.getLogger(__name__)

HOUR_S = 3600.0
DECISION_LOOP = "decision loop"
LAG_SHOWN_AFTER_S = 60.0
"""A run in hand this long is shown in the status line: the loop is behind."""


class OneAtATime:
    """A job's runs, one at a time: a run due while one is in hand is coalesced, quietly.

    A decision tick that outlasts its interval (a burst of changes, a slow
    LLM) is normal: the runs that come due meanwhile end at once and are
    counted, instead of APScheduler's WARNING about running instances. A run
    in hand for :data:`LAG_SHOWN_AFTER_S` or more shows in the status line.
    """

    def __init__(
        self,
        name: str,
        run: Callable[[], Awaitable[object]],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self._job = run
        self.clock = clock
        self.coalesced = 0
        """Runs that came due while one was in hand, since that one started."""
        self._started: float | None = None

    async def run(self) -> None:
        """Run once, unless a run is in hand (then only count this one).

        A coroutine function, not ``__call__``: APScheduler awaits only those.
        """
        if self._started is not None:
            self.coalesced += 1
            log.debug("%s: a run came due while one is in hand; coalesced", self.name)
            return
        self._started, self.coalesced = self.clock(), 0
        try:
            await self._job()
        except asyncio.CancelledError:
            # Cancelled because the daemon stops: not an error, so no traceback (APScheduler
            # logs whatever a job raises, CancelledError too, with its traceback).
            log.info("%s: the run in hand was cancelled: the daemon is stopping", self.name)
        finally:
            self._started = None

    def lag(self) -> str | None:
        """``decision loop behind: a run in hand for 75 s, 37 due runs coalesced``, or None."""
        if self._started is None:
            return None
        running_s = self.clock() - self._started
        if running_s < LAG_SHOWN_AFTER_S:
            return None
        return (
            f"{self.name} behind: a run in hand for {running_s:.0f} s,"
            f" {self.coalesced} due runs coalesced"
        )


# How much of the last error (and of the operations' text) the status line shows.
STATUS_ERROR_CHARS = 160
STATUS_PART_CHARS = 200


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
        lag: Callable[[], str | None] | None = None,
    ) -> None:
        self.ingestor = ingestor
        self.index_sync = index_sync
        self.out = out
        self.decisions = decisions
        # Budget, running executions and open escalations, read from the graph at emit time.
        self.operations = operations
        self.operations_text = ""
        self.llm = llm
        # The decision loop's run in hand, when it has been in hand for long.
        self.lag = lag
        self.part_error: str | None = None  # set by the supervisor when a part dies

    def render(self) -> str:
        """The status text (also used by tests)."""
        stats = self.ingestor.stats
        error = self.part_error or stats.last_error or self.index_sync.last_error or "none"
        decided = f" · decisions {self.decisions()}" if self.decisions else ""
        llm = f" · llm {self.llm()}" if self.llm else ""
        behind = self.lag() if self.lag else None
        lag = f" · {behind}" if behind else ""
        # One line whatever an error says: newlines, escapes and length never spill over.
        line = (
            f"[{datetime.now().strftime('%H:%M:%S')}] observations {stats.recorded}"
            f" (noise dropped {stats.noise_dropped}) · queue {self.ingestor.queue_depth}"
            f"{self.ingestor.spool_status()}{decided}{lag}"
            f"{self.operations_text}{llm}"
            f" · last error: {plain_text(error, STATUS_ERROR_CHARS)}"
        )
        return plain_text(line)

    async def emit(self) -> None:
        """Print the status line."""
        if self.operations is not None:
            try:
                operations = await self.operations()
            except GraphError as exc:
                operations = f"operations unknown ({exc})"
            self.operations_text = f" · {plain_text(operations, STATUS_PART_CHARS)}"
        print(self.render(), file=self.out)
        self.out.flush()


class RSIJob:
    """Runs the engine's cycle unless the hour's allowance is spent; never raises."""

    def __init__(
        self,
        engine: RSIEngine,
        settings: RSISettings,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = engine
        self.max_per_hour = settings.max_cycles_per_hour
        self.clock = clock
        self.started: deque[float] = deque()
        self.last: RSICycle | None = None

    def allowed(self) -> bool:
        """Whether another cycle may start within the last hour's allowance."""
        now = self.clock()
        while self.started and now - self.started[0] >= HOUR_S:
            self.started.popleft()
        return len(self.started) < self.max_per_hour

    async def run(self) -> RSICycle | None:
        """One cycle, or None when the hourly allowance is spent."""
        if not self.allowed():
            log.info("RSI cycle skipped: %d cycles in the last hour", len(self.started))
            return None
        self.started.append(self.clock())
        self.last = await self.engine.run_cycle()
        log.info(
            "RSI cycle: %d desires, %d accepted, %d practiced, %d succeeded%s",
            self.last.processed,
            self.last.accepted,
            self.last.practiced,
            self.last.succeeded,
            f", error: {self.last.error}" if self.last.error else "",
        )
        return self.last


def register_jobs(
    scheduler: AsyncIOScheduler,
    schedule: ScheduleSettings,
    index_sync: IndexSync,
    status: StatusLine,
    decide: OneAtATime | None = None,
) -> list[str]:
    """Add the decision loop, the index sync and the status line; describe each for the banner."""
    jobs: list[str] = []
    if decide is not None:
        _every(scheduler, decide, schedule.decision_interval_s, "decision_loop")
        jobs.append(f"{decide.name} (every {schedule.decision_interval_s:g} s)")
    scheduler.add_job(
        quiet_on_cancel(index_sync.run),
        CronTrigger.from_crontab(schedule.index_sync_cron),
        kwargs={"announce": True},
        id="index_sync",
        name="index sync",
        max_instances=1,
        coalesce=True,
        misfire_grace_time=3600,
    )
    _every(scheduler, OneAtATime("status line", status.emit), schedule.status_interval_s, "status")
    return [
        *jobs,
        f"index sync (cron '{schedule.index_sync_cron}')",
        f"status line (every {schedule.status_interval_s:g} s)",
    ]


def register_rsi_job(scheduler: AsyncIOScheduler, settings: RSISettings, job: RSIJob) -> list[str]:
    """Add the RSI cycle when ``rsi.enabled``; return its banner description (or nothing)."""
    if not settings.enabled:
        return []
    _every(scheduler, OneAtATime("RSI cycle", job.run), settings.cycle_interval_s, "rsi_cycle")
    return [
        f"RSI cycle (every {settings.cycle_interval_s:g} s, at most "
        f"{settings.max_cycles_per_hour}/h)"
    ]


def register_prune_job(scheduler: AsyncIOScheduler, settings: RSISettings, pruner: Pruner) -> str:
    """Add the daily heuristic pruning (seed 003 C5, C7); return its banner description."""
    scheduler.add_job(
        quiet_on_cancel(prune_now),
        CronTrigger.from_crontab(settings.prune_cron),
        args=[pruner],
        id="heuristic_prune",
        name="pruning",
        max_instances=1,
        coalesce=True,
        misfire_grace_time=3600,
    )
    return f"heuristic pruning (cron '{settings.prune_cron}')"


def register_vector_job(
    scheduler: AsyncIOScheduler, settings: EmbeddingSettings, job: VectorJob | None
) -> list[str]:
    """Add the vector job (none when embeddings are off); return its banner description."""
    if job is None:
        return []
    _every(scheduler, OneAtATime("vectors", job.run), settings.interval_s, "vectors")
    return [
        f"vectors ({job.embeddings.model}, every {settings.interval_s:g} s, "
        f"at most {settings.max_per_run} a run)"
    ]


HISTORY_BUDGET_S = 30.0
"""What one of the daemon's reads of the git history may take (git and Neo4j together)."""


def register_history_job(
    scheduler: AsyncIOScheduler,
    settings: HistorySettings,
    commits: CommitStore,
    reader: HistoryReader,
) -> list[str]:
    """Add the git history job (none when ``history.enabled`` is off): every
    ``history.interval_s`` it asks git for HEAD and, when HEAD moved, keeps the new commits;
    return its banner description."""
    if not settings.enabled:
        return []
    _every(
        scheduler,
        OneAtATime("git history", lambda: reader.take(commits)),
        settings.interval_s,
        "history",
    )
    every, most = settings.interval_s, settings.first_commits
    return [f"git history (every {every:g} s, at most {most} commits a read)"]


def _every(scheduler: AsyncIOScheduler, run: OneAtATime, seconds: float, job_id: str) -> None:
    # Room for one more instance than runs at once: the second is a run that came
    # due during the first, which OneAtATime ends at once instead of APScheduler
    # warning about it (a tick slower than its interval is normal, not a fault).
    scheduler.add_job(
        run.run,
        "interval",
        seconds=seconds,
        id=job_id,
        name=run.name,
        max_instances=2,
        coalesce=True,
    )


async def prune_now(pruner: Pruner) -> PruneReport | None:
    """One run of the daily pruning; a failure is logged, never raised to the scheduler."""
    try:
        return await pruner.run()
    except Exception:
        log.exception("heuristic pruning failed; the next run tries again")
        return None


async def watch_into(
    watcher: FileWatcher, ingestor: Ingestor, stop: asyncio.Event, status: StatusLine
) -> None:
    """Feed the watcher's batches to the ingestor until ``stop``.

    A failure propagates: the daemon's supervisor (:mod:`scheduler.supervisor`)
    logs it, shows it in the status line and starts the watcher again.
    """
    async for batch in watcher.watch(stop):
        ingestor.submit(batch)
