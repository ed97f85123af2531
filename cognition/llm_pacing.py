"""One request at a time to the LLM, spaced apart, the decision loop's first.

The daemon's decision loop and the RSI cycle share one :class:`LLMClient`.
A local server answers one request at a time anyway, so the client sends one
at a time: a request waits for its turn, turns start at least
``min_interval_s`` apart, and when several wait, a ``"decision"`` request is
served before any ``"background"`` one (first come, first served within a
priority). A background request in flight is never interrupted, so a
decision waits for at most that one request, and a decision that waits
longer than ``decision_wait_s`` is given to the rules (the client raises
:class:`cognition.errors.LLMBusyError`). :func:`request_timeout` sizes each
request's timeout to the request.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Literal

from cognition.text import CHARS_PER_TOKEN
from graph.settings import LLMSettings

Priority = Literal["decision", "background"]
_RANK: dict[str, int] = {"decision": 0, "background": 1}


class RequestPacer:
    """Grants turns one at a time, by priority, at least ``min_interval_s`` apart."""

    def __init__(self, min_interval_s: float = 0.0) -> None:
        """``min_interval_s``: the least time between the starts of two requests."""
        self._interval = max(0.0, min_interval_s)
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._busy = False
        self._last_start: float | None = None
        self._timer: asyncio.TimerHandle | None = None

    @property
    def waiting(self) -> int:
        """How many requests wait for their turn."""
        return sum(1 for _, _, f in self._waiting if not f.done())

    @asynccontextmanager
    async def turn(self, priority: Priority) -> AsyncIterator[None]:
        """Hold the one turn for the body of the ``async with``."""
        if priority not in _RANK:
            raise ValueError(f"priority must be 'decision' or 'background', not {priority!r}")
        loop = asyncio.get_running_loop()
        granted: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._waiting, (_RANK[priority], next(self._order), granted))
        self._pump()
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self._release()  # granted in the same tick it was cancelled
            raise
        # The turn starts now, when its holder runs again, not when it was granted: on a
        # busy loop the two lie apart, and spacing grants would let the next request
        # start less than the interval after this one.
        self._last_start = loop.time()
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        self._busy = False
        self._pump()

    def _pump(self) -> None:
        """Grant the next turn if nobody holds it and the interval has passed."""
        if self._busy or self._timer is not None:
            return
        while self._waiting and self._waiting[0][2].done():
            heapq.heappop(self._waiting)  # cancelled while waiting
        if not self._waiting:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._last_start is not None:
            delay = self._last_start + self._interval - now
            if delay > 0:
                self._timer = loop.call_later(delay, self._on_timer)
                return
        _, _, granted = heapq.heappop(self._waiting)
        self._busy = True  # until the holder releases; its start is set when it runs
        granted.set_result(None)

    def _on_timer(self) -> None:
        self._timer = None
        self._pump()


def request_timeout(settings: LLMSettings, prompt_chars: int, max_tokens: int) -> float:
    """Seconds one request may take: its prompt and ``max_tokens`` at the slowest expected
    rates, within ``[timeout_s, timeout_ceiling_s]``.

    A slow local model answering a long prompt is a normal model; the timeout
    is there to notice a request that will never finish, not one that is large.
    """
    # An estimate that errs long only makes the timeout more generous.
    prompt_tokens = prompt_chars / CHARS_PER_TOKEN
    needed = (
        prompt_tokens / settings.prompt_tokens_per_s + max_tokens / settings.completion_tokens_per_s
    )
    floor = settings.timeout_s
    ceiling = max(settings.timeout_ceiling_s, floor)
    return min(max(needed, floor), ceiling)
