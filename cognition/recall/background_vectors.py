"""Vectors for what a long-lived process writes (``nous mcp``), embedded in the background.

A write asks for vectors with :meth:`BackgroundVectors.nudge` and goes on at
once; one task embeds what is pending (the :class:`VectorJob` of the daemon,
its passes bounded by ``embeddings.max_per_run``), and runs again while
writes keep coming. Its first pass starts from the beginning of the memory,
so what a hook or an earlier process left pending is caught up too; later
passes look back :data:`LOOKBACK` as well, for nodes other processes
committed late. A reader that must find the latest writes by meaning waits
for the task with :meth:`settle`. Vectors of another model than the
memory's are never written: the task says so once and stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

from cognition.embeddings import Embeddings
from cognition.recall.vectors import VectorJob
from graph.settings import EmbeddingSettings
from graph.store.memory import Memory

log = logging.getLogger(__name__)

LOOKBACK = timedelta(minutes=10)
"""How far back every pass looks, whatever its cursor: longer than any writer's transaction."""


class BackgroundVectors:
    """Embeds the memory's pending nodes in a task of its own, when asked, one run at a time."""

    def __init__(
        self,
        embeddings: Embeddings,
        settings: EmbeddingSettings,
        root: Path,
        memory: Callable[[], Awaitable[Memory]],
    ) -> None:
        """``memory`` returns the memory to write into (reconnected by its owner when lost)."""
        self.embeddings = embeddings
        self.settings = settings
        self.root = root
        self._memory = memory
        self._job: VectorJob | None = None
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self._counted = 0  # the current job's stats.written already added to written
        self.written = 0
        """Vectors written since the process started (a reader's caches go stale when it grows)."""
        self.refused: str | None = None
        """Why no vector is written here (the memory holds another model's), once known."""
        self.last_error: str | None = None

    def nudge(self) -> None:
        """Something was written: embed what is pending, soon, without waiting for it."""
        if self.refused is not None:
            return
        self._again = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="vectors")

    async def settle(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for the running pass (and those asked for meanwhile) to end.

        True when nothing is left running.
        """
        task = self._task
        if task is None or task.done():
            return True
        done, _ = await asyncio.wait({task}, timeout=timeout_s)
        return bool(done)

    async def close(self) -> None:
        """Stop the task (what it embedded so far is stored; the rest stays pending)."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while self._again:
            self._again = False
            try:
                job = await self._job_for(await self._memory())
                if job is None:
                    return
                written = await job.run()
            except Exception as exc:  # a writer's memory may be gone; the next write retries
                self.last_error = f"vectors: {type(exc).__name__}: {exc}"
                log.warning("%s", self.last_error)
                return
            self.written += job.stats.written - self._counted
            self._counted = job.stats.written
            if job.stats.last_error:
                self.last_error = job.stats.last_error
                return  # logged by the job; tried again at the next write
            if written >= self.settings.max_per_run:
                self._again = True  # more is pending than one pass embeds

    async def _job_for(self, memory: Memory) -> VectorJob | None:
        if self._job is not None and self._job.store.graph is memory:
            return self._job
        job = VectorJob(memory, self.embeddings, self.settings, self.root, lookback=LOOKBACK)
        problem = await job.model_problem()
        if problem is not None:
            self.refused = problem
            log.warning("no vectors are written by this process: %s", problem)
            return None
        self._job, self._counted = job, 0
        return job
