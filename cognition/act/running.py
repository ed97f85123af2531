"""Actions in flight: each runs as its own asyncio task, so deciding never waits for acting.

At most ``budget.max_concurrent`` run at once: an action decided while the
slots are taken waits for one, in the order decided (its decision stays
``decided`` until it starts). The hourly budget is the actor's: an action
over it is deferred, not queued. On shutdown every running action gets the
same grace period to finish; then its task is cancelled, which kills its
child's process group, and an action still waiting for a slot is cancelled
before it starts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)


class RunningActions:
    """The tasks of the actions that are running now."""

    def __init__(self, max_concurrent: int = 1) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self.slots = asyncio.Semaphore(max_concurrent)

    def __len__(self) -> int:
        return len(self._tasks)

    def start(
        self,
        work: Coroutine[Any, Any, None],
        name: str,
        *,
        never_started: Callable[[], Awaitable[None]] | None = None,
    ) -> asyncio.Task[None]:
        """Run ``work`` as a task of its own once a slot is free; forgotten once it ends.

        ``never_started`` runs when the task is cancelled while it still waits
        for a slot (so its decision can be looked at again after a restart).
        """
        task = asyncio.create_task(self._in_a_slot(work, never_started), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._ended)
        return task

    async def _in_a_slot(
        self,
        work: Coroutine[Any, Any, None],
        never_started: Callable[[], Awaitable[None]] | None,
    ) -> None:
        started = False
        try:
            async with self.slots:
                started = True
                await work
        except asyncio.CancelledError:
            if not started and never_started is not None:
                await asyncio.shield(never_started())
            raise
        finally:
            work.close()  # never started (cancelled while waiting): no "never awaited" warning

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("action task %s failed", task.get_name(), exc_info=task.exception())

    async def wait(self, timeout_s: float | None = None) -> bool:
        """Wait until no action runs (True), or ``timeout_s`` passed first (False)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout_s is None else loop.time() + timeout_s
        while self._tasks:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            _, pending = await asyncio.wait(set(self._tasks), timeout=left)
            if pending and deadline is not None and loop.time() >= deadline:
                return False
        return True

    async def stop(self, grace_s: float) -> None:
        """Give every running action ``grace_s`` to finish, then cancel the rest.

        Cancelling an action kills its child's process group, so nothing it
        started outlives the daemon.
        """
        if not self._tasks:
            return
        pending = set(self._tasks)
        _, late = await asyncio.wait(pending, timeout=grace_s)
        if late:
            log.warning(
                "stopping: cancelling %d running action(s) after %.0f s", len(late), grace_s
            )
            for task in late:
                task.cancel()
            await asyncio.wait(late)
