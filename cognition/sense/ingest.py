"""From raw observations to the graph: classify, drop noise, queue by urgency, write in batches.

The watcher and the rescan both hand their observations to one
:class:`Ingestor`. It classifies them at once (so urgency orders the queue),
drops noise, and a single writer task drains the queue in priority order,
``write_batch_size`` at a time, each batch one ``UNWIND`` transaction. A batch
that fails to write stays in hand and is retried with backoff; nothing is
dropped on an error. On stop the writer finishes the batch in hand and then
flushes what is queued, so a SIGTERM leaves no half batch behind.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from cognition.sense.classify import ObservationClassifier
from cognition.sense.queue import ObservationQueue, QueueFullError
from graph.errors import GraphError
from graph.models import Observation, Urgency, utc_now
from graph.store.memory import Memory

log = logging.getLogger(__name__)

RETRY_BACKOFF_S: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0)


@dataclass
class IngestStats:
    """Counters for the status line."""

    recorded: int = 0
    noise_dropped: int = 0
    refused: int = 0
    batches: int = 0
    last_error: str | None = None
    last_error_at: datetime | None = None


class Ingestor:
    """Classifies observations and writes them to the memory in priority order."""

    def __init__(
        self,
        memory: Memory,
        classifier: ObservationClassifier,
        *,
        batch_size: int = 1000,
        queue_limit: int | None = None,
        retry_backoff_s: Sequence[float] = RETRY_BACKOFF_S,
        attribute: Callable[[Observation], Observation] | None = None,
    ) -> None:
        self.memory = memory
        self.classifier = classifier
        self.batch_size = batch_size
        self.stats = IngestStats()
        self._attribute = attribute
        self._queue = ObservationQueue(max_size=queue_limit)
        self._in_hand: list[Observation] = []
        self._ready = asyncio.Event()
        self._backoff = tuple(retry_backoff_s) or (1.0,)
        self._idle = asyncio.Event()
        self._idle.set()
        # The writer task and an explicit flush (index sync, shutdown) share the
        # batch in hand; one writer at a time keeps a batch from going out twice.
        self._write_lock = asyncio.Lock()

    @property
    def queue_depth(self) -> int:
        """Observations waiting to be written, the batch in hand included."""
        return len(self._queue) + len(self._in_hand)

    def submit(self, observations: Iterable[Observation]) -> list[Observation]:
        """Classify, attribute and queue observations; return the ones kept (noise is dropped).

        A full queue refuses the rest; they are counted, and the next rescan
        finds the file changes they described.
        """
        kept: list[Observation] = []
        for raw in observations:
            observation = self.classifier.classify(raw)
            if self._attribute is not None:
                observation = self._attribute(observation)
            if observation.urgency is Urgency.NOISE:
                self.stats.noise_dropped += 1
                continue
            try:
                self._queue.add(observation)
            except QueueFullError:
                self.stats.refused += 1
                continue
            kept.append(observation)
        if kept:
            self._idle.clear()
            self._ready.set()
        return kept

    async def run(self, stop: asyncio.Event) -> None:
        """Write queued observations until ``stop`` is set, then flush and return."""
        stop_wait = asyncio.ensure_future(stop.wait())
        try:
            while not stop.is_set():
                ready_wait = asyncio.ensure_future(self._ready.wait())
                await asyncio.wait({ready_wait, stop_wait}, return_when=asyncio.FIRST_COMPLETED)
                ready_wait.cancel()
                self._ready.clear()
                await self._write_queued(stop)
        finally:
            stop_wait.cancel()
        await self.flush()

    async def flush(self, attempts: int = 3) -> int:
        """Write everything queued now; retry a failing batch a few times, then give up."""
        before = self.stats.recorded
        await self._write_queued(None, attempts=attempts)
        return self.stats.recorded - before

    async def wait_idle(self, timeout_s: float) -> bool:
        """Wait until the queue is empty and written; False on timeout (tests, benchmarks)."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout_s)
        except TimeoutError:
            return False
        return True

    async def _write_queued(self, stop: asyncio.Event | None, attempts: int | None = None) -> None:
        async with self._write_lock:
            await self._write_locked(stop, attempts)

    async def _write_locked(self, stop: asyncio.Event | None, attempts: int | None) -> None:
        failures = 0
        while self._in_hand or len(self._queue):
            if not self._in_hand:
                self._in_hand = self._queue.drain(self.batch_size)
            try:
                await self.memory.record_observations(self._in_hand, batch_size=self.batch_size)
            except GraphError as exc:
                failures += 1
                self.stats.last_error = str(exc)
                self.stats.last_error_at = utc_now()
                log.warning("writing %d observations failed: %s", len(self._in_hand), exc)
                if attempts is not None and failures >= attempts:
                    log.error(
                        "giving up on %d queued observations; the next rescan finds their files",
                        self.queue_depth,
                    )
                    return
                delay = self._backoff[min(failures, len(self._backoff)) - 1]
                if stop is not None and await _stopped_within(stop, delay):
                    return
                continue
            failures = 0
            self.stats.recorded += len(self._in_hand)
            self.stats.batches += 1
            self._in_hand = []
        self._idle.set()


async def _stopped_within(stop: asyncio.Event, seconds: float) -> bool:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        return False
    return True
