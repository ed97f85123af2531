"""The action budget: how many actions the agent may start in an hour, and run at once.

Every action takes a :class:`BudgetTicket` before its first execution and
gives it back when it ends; the ticket counts against the hour (a sliding
window of :data:`WINDOW_S` seconds, counted when the ticket is taken) and
against the actions running now (until it is released). When either limit is
reached, :meth:`ActionBudget.try_acquire` returns ``None`` and
:meth:`ActionBudget.reason` says why. Everything runs on the event loop's
thread, so no lock is needed.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType

from graph.settings import BudgetSettings

WINDOW_S = 3600.0
"""The length of the sliding window ``actions_per_hour`` counts over."""


@dataclass(frozen=True, slots=True)
class BudgetSnapshot:
    """The budget as it stands, for the status line."""

    used_last_hour: int
    running: int
    actions_per_hour: int
    max_concurrent: int
    next_slot_in_s: float | None
    """Seconds until the hourly window frees a slot; ``None`` if one is free (or never will be)."""


class BudgetTicket:
    """Permission for one action; give it back with :meth:`release` or ``async with``."""

    def __init__(self, budget: ActionBudget) -> None:
        self._budget: ActionBudget | None = budget

    @property
    def released(self) -> bool:
        """True once the ticket has been given back."""
        return self._budget is None

    def release(self) -> None:
        """Give the ticket back; releasing it again does nothing."""
        budget, self._budget = self._budget, None
        if budget is not None:
            budget._release()

    async def __aenter__(self) -> BudgetTicket:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


class ActionBudget:
    """Bounds actions per hour (``BudgetSettings.actions_per_hour``) and at once."""

    def __init__(
        self, settings: BudgetSettings, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._settings = settings
        self._clock = clock
        self._started: deque[float] = deque()
        self._running = 0

    def count_earlier(self, started_ago_s: Sequence[float]) -> None:
        """Count actions started before this process (seconds ago each) against the hour.

        A restart must not reset the budget: reconciliation at start reads the
        last hour's actions from the graph and hands their ages here.
        """
        now = self._clock()
        starts = sorted(now - max(0.0, age) for age in started_ago_s if age < WINDOW_S)
        self._started = deque(sorted([*starts, *self._started]))

    def try_acquire(self) -> BudgetTicket | None:
        """A ticket for one more action, or ``None`` if a limit is reached (see :meth:`reason`)."""
        if self.reason() is not None:
            return None
        self._started.append(self._clock())
        self._running += 1
        return BudgetTicket(self)

    def reason(self) -> str | None:
        """Why no action may start now, or ``None`` if one may."""
        settings = self._settings
        used = self._used()
        if settings.actions_per_hour == 0:
            return "actions_per_hour is 0: acting is switched off"
        if used >= settings.actions_per_hour:
            wait = self._next_slot_in()
            return (
                f"hourly budget spent: {used} actions started in the last hour"
                f" (limit {settings.actions_per_hour}); next slot in {wait:.0f} s"
            )
        if self._running >= settings.max_concurrent:
            return f"{self._running} actions running (at most {settings.max_concurrent} at once)"
        return None

    def snapshot(self) -> BudgetSnapshot:
        """How much of the budget is in use now."""
        used = self._used()
        limit = self._settings.actions_per_hour
        full = 0 < limit <= used
        return BudgetSnapshot(
            used_last_hour=used,
            running=self._running,
            actions_per_hour=limit,
            max_concurrent=self._settings.max_concurrent,
            next_slot_in_s=self._next_slot_in() if full else None,
        )

    def _used(self) -> int:
        # A start exactly WINDOW_S ago has left the window: (now - 3600, now].
        horizon = self._clock() - WINDOW_S
        while self._started and self._started[0] <= horizon:
            self._started.popleft()
        return len(self._started)

    def _next_slot_in(self) -> float:
        # The oldest start in the window is the next one to leave it.
        used, limit = len(self._started), self._settings.actions_per_hour
        oldest_blocking = self._started[used - limit]
        return max(0.0, oldest_blocking + WINDOW_S - self._clock())

    def _release(self) -> None:
        self._running -= 1
