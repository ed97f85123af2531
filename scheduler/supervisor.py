"""The daemon's long-running parts under one supervisor: never run blind, never die silently.

The watcher, the writer and the job loop each run as a task. When one ends
while the daemon is not stopping, by an exception or by returning, the
supervisor logs it at ERROR, shows it in the status line, and starts it again
after a backoff. A part that keeps dying (``max_failures`` times in a row,
each after a run shorter than ``healthy_after_s``) cannot restart: the
supervisor records why, sets the stop event, and the daemon exits non-zero
with that reason instead of going on without it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from apscheduler.events import EVENT_JOB_ERROR, JobExecutionEvent
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.schedulers.base import STATE_PAUSED, STATE_RUNNING, STATE_STOPPED

log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")

BACKOFF_S: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0)
MAX_FAILURES = 5
HEALTHY_AFTER_S = 60.0


@dataclass(frozen=True)
class Part:
    """One long-running part: its name and how to start it (a fresh coroutine each time)."""

    name: str
    start: Callable[[], Awaitable[None]]


class Supervisor:
    """Runs parts until ``stop`` is set, restarting each one that dies."""

    def __init__(
        self,
        stop: asyncio.Event,
        *,
        on_death: Callable[[str, str], None] | None = None,
        backoff_s: Sequence[float] = BACKOFF_S,
        max_failures: int = MAX_FAILURES,
        healthy_after_s: float = HEALTHY_AFTER_S,
    ) -> None:
        self.stop = stop
        self.on_death = on_death
        self.backoff_s = tuple(backoff_s) or (1.0,)
        self.max_failures = max_failures
        self.healthy_after_s = healthy_after_s
        self.failure: str | None = None
        """Why the daemon must exit: the part that could not restart, and its last error."""
        self.restarts: dict[str, int] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def start(self, parts: Sequence[Part]) -> None:
        """Start supervising ``parts``, each in a task of its own."""
        for part in parts:
            self.restarts.setdefault(part.name, 0)
            task = asyncio.create_task(self._keep(part), name=f"nous-{part.name}")
            self._tasks.append(task)

    async def wait(self, timeout_s: float) -> None:
        """Wait for every part to end after ``stop`` is set; cancel what is still running."""
        if not self._tasks:
            return
        _, pending = await asyncio.wait(self._tasks, timeout=timeout_s)
        for task in pending:
            log.error("%s did not finish within %.0f s", task.get_name(), timeout_s)
            task.cancel()
        if pending:
            await asyncio.wait(pending)

    async def _keep(self, part: Part) -> None:
        failures = 0
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                await part.start()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                why = f"{type(exc).__name__}: {exc}"
                exc_info: BaseException | None = exc
            else:
                if self.stop.is_set():
                    return
                why, exc_info = "ended without being asked to", None
            if time.monotonic() - started >= self.healthy_after_s:
                failures = 0
            failures += 1
            self.restarts[part.name] += 1
            log.error("%s died: %s", part.name, why, exc_info=exc_info)
            if self.on_death is not None:
                self.on_death(part.name, why)
            if failures >= self.max_failures:
                self.failure = f"{part.name} cannot run: died {failures} times in a row; {why}"
                log.error("%s; stopping the daemon", self.failure)
                self.stop.set()
                return
            delay = self.backoff_s[min(failures, len(self.backoff_s)) - 1]
            log.error("restarting %s in %.1f s", part.name, delay)
            try:
                await asyncio.wait_for(self.stop.wait(), delay)
            except TimeoutError:
                continue


async def run_jobs(
    scheduler: AsyncIOScheduler, stop: asyncio.Event, on_error: Callable[[str, str], None]
) -> None:
    """The job loop as a supervised part: APScheduler runs the jobs until ``stop``.

    A job that raises is logged by APScheduler at ERROR and runs again at its
    next time; ``on_error`` puts it in the status line too. On ``stop`` the
    jobs are paused, not shut down: the decision in hand keeps its grace
    period (the daemon shuts the scheduler down once it is over).
    """

    def failed(event: JobExecutionEvent) -> None:
        on_error(f"job {event.job_id}", f"{type(event.exception).__name__}: {event.exception}")

    scheduler.add_listener(failed, EVENT_JOB_ERROR)
    try:
        if scheduler.state == STATE_PAUSED:
            scheduler.resume()
        elif scheduler.state == STATE_STOPPED:
            scheduler.start()
        await stop.wait()
    finally:
        scheduler.remove_listener(failed)
        if scheduler.state == STATE_RUNNING:
            scheduler.pause()


def quiet_on_cancel(job: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T | None]]:
    """``job`` for APScheduler, ending quietly (None) when it is cancelled at shutdown.

    APScheduler logs any exception a job raises with its traceback, a
    ``CancelledError`` too; a job cancelled because the daemon stops is
    not an error.
    """

    @functools.wraps(job)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T | None:
        try:
            return await job(*args, **kwargs)
        except asyncio.CancelledError:
            log.info("the job in hand was cancelled: the daemon is stopping")
            return None

    return run
