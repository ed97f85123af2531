"""The scheduled RSI cycle: every ``rsi.cycle_interval_s``, at most ``rsi.max_cycles_per_hour``.

One cycle at a time (``max_instances=1``), missed runs coalesced; with
``rsi.enabled: false`` no job is added.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from graph.models import RSICycle
from graph.settings import RSISettings
from rsi.engine import RSIEngine

log = logging.getLogger(__name__)

HOUR_S = 3600.0


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
            "RSI cycle: %d desires, %d accepted, %d practised, %d succeeded%s",
            self.last.processed,
            self.last.accepted,
            self.last.practised,
            self.last.succeeded,
            f", error: {self.last.error}" if self.last.error else "",
        )
        return self.last


def register_rsi_job(scheduler: AsyncIOScheduler, settings: RSISettings, job: RSIJob) -> list[str]:
    """Add the RSI job when ``rsi.enabled``; return its banner description (or nothing)."""
    if not settings.enabled:
        return []
    scheduler.add_job(
        job.run,
        "interval",
        seconds=settings.cycle_interval_s,
        id="rsi_cycle",
        max_instances=1,
        coalesce=True,
    )
    return [
        f"RSI cycle (every {settings.cycle_interval_s:g} s, at most "
        f"{settings.max_cycles_per_hour}/h)"
    ]
