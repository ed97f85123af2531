"""From raw observations to the graph: classify, drop noise, queue by urgency, write in batches.

The watcher and the rescan both hand their observations to one
:class:`Ingestor`. It classifies them at once (so urgency orders the queue),
drops noise, and a single writer task drains the queue in priority order,
``write_batch_size`` at a time, each batch one ``UNWIND`` transaction. A batch
that fails to write stays in hand and is retried with backoff; nothing is
dropped on an error. On stop the writer finishes the batch in hand and then
flushes what is queued, so a SIGTERM leaves no half batch behind.

With a spool (:mod:`cognition.sense.spool`) every kept observation is on
disk before it is queued and is acknowledged once its batch has committed.
Only ``in_memory`` observations are held in memory; the rest (a Neo4j
outage, a burst, what the spool held at start) wait on disk, are read back
in the order they came, and keep the process's memory flat. A full spool
refuses new observations loudly (an ERROR once per episode, and the status
line); when it has room again a rescan restores the newest state of the
files whose changes it refused.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from cognition.sense.classify import ObservationClassifier
from cognition.sense.door import admit
from cognition.sense.queue import ObservationQueue, QueueFullError
from cognition.sense.spool import ObservationSpool
from graph.errors import GraphError, MemoryQueryError
from graph.intake import FileChange, Provenance
from graph.models import Observation, Urgency, utc_now
from graph.store.memory import Memory

log = logging.getLogger(__name__)

RETRY_BACKOFF_S: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0)
# Held in memory even when older observations wait on disk: they are decided first.
_PRESSING = frozenset({Urgency.CRITICAL, Urgency.URGENT})


@dataclass
class IngestStats:
    """Counters for the status line."""

    recorded: int = 0
    noise_dropped: int = 0
    refused: int = 0
    batches: int = 0
    replayed: int = 0
    rejected: int = 0  # refused by Neo4j itself (a client error), dropped with an ERROR
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
        spool: ObservationSpool | None = None,
        in_memory: int = 2000,
    ) -> None:
        self.memory = memory
        self.classifier = classifier
        self.batch_size = batch_size
        self.stats = IngestStats()
        self._attribute = attribute
        self._queue = ObservationQueue(max_size=None if spool else queue_limit)
        self._in_hand: list[Observation] = []
        self._ready = asyncio.Event()
        self._backoff = tuple(retry_backoff_s) or (1.0,)
        self._idle = asyncio.Event()
        self._spool = spool
        self._in_memory = in_memory
        # Ids of spooled observations not in memory, oldest first; at start, all the spool holds.
        self._on_disk: deque[str] = deque(spool.pending_ids if spool else ())
        self._replaying = set(self._on_disk)
        self._replayed = asyncio.Event()
        self._spool_full: datetime | None = None
        self._spool_error: str | None = None
        self._on_relief: Callable[[], None] | None = None
        if self._on_disk:
            self._ready.set()
        else:
            self._idle.set()
            self._replayed.set()
        # The writer task and an explicit flush (index sync, shutdown) share the
        # batch in hand; one writer at a time keeps a batch from going out twice.
        self._write_lock = asyncio.Lock()

    @property
    def queue_depth(self) -> int:
        """Observations waiting to be written, the batch in hand and those on disk included."""
        return len(self._queue) + len(self._in_hand) + len(self._on_disk)

    def on_spool_relief(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` when a full spool has room again (the daemon rescans then)."""
        self._on_relief = callback

    def spool_status(self) -> str:
        """The spool's part of the status line ("" without a spool)."""
        if self._spool is None:
            return ""
        spool = self._spool
        used, limit = spool.size_bytes / 2**20, spool.max_bytes / 2**20
        text = f" · spool {len(spool)} ({used:.1f} of {limit:g} MiB)"
        if self._spool_full is not None:
            text += (
                f" FULL since {self._spool_full:%H:%M:%S}, {self.stats.refused} refused"
                " (the rescan restores their files)"
            )
        if self._spool_error is not None:
            text += f" UNWRITABLE: {self._spool_error}"
        return text

    async def wait_replayed(self) -> None:
        """Return once what the spool held at start is committed in Neo4j."""
        await self._replayed.wait()

    def submit(self, observations: Iterable[Observation]) -> list[Observation]:
        """Classify, attribute and queue observations; return the ones kept (noise is dropped).

        A full queue refuses the rest; they are counted, and the next rescan
        finds the file changes they described.
        """
        kept: list[Observation] = []
        for raw in observations:
            observation = self.classifier.classify(through_door(raw))
            if self._attribute is not None:
                observation = self._attribute(observation)
            if observation.urgency is Urgency.NOISE:
                self.stats.noise_dropped += 1
                continue
            if self._spool is not None:
                kept.append(observation)
                continue
            try:
                self._queue.add(observation)
            except QueueFullError:
                self.stats.refused += 1
                continue
            kept.append(observation)
        if self._spool is not None:
            kept = self._spool_and_hold(kept)
        if kept:
            self._idle.clear()
            self._ready.set()
        return kept

    def _spool_and_hold(self, kept: list[Observation]) -> list[Observation]:
        assert self._spool is not None
        spool = self._spool
        spooled = 0
        try:
            spooled = spool.append(kept)
        except OSError as exc:
            # Held in memory only: better kept until a kill than refused now.
            if self._spool_error is None:
                log.error(
                    "cannot write the intake spool %s: %s; observations kept in memory only",
                    spool.path,
                    exc,
                )
            self._spool_error = str(exc)
            for observation in kept:
                self._queue.add(observation)
            return kept
        self._spool_error = None
        if spooled < len(kept):
            self.stats.refused += len(kept) - spooled
            if self._spool_full is None:
                self._spool_full = utc_now()
                log.error(
                    "the intake spool %s is full (%d bytes, limit intake.spool_max_bytes = %d):"
                    " new observations are refused until it drains; a rescan then restores"
                    " the newest state of their files",
                    spool.path,
                    spool.size_bytes,
                    spool.max_bytes,
                )
        elif self._spool_full is not None and kept:
            self._spool_full = None
            log.warning(
                "the intake spool %s has room again; rescanning for what it refused", spool.path
            )
            if self._on_relief is not None:
                self._on_relief()
        for observation in kept[:spooled]:
            if observation.urgency not in _PRESSING and (
                self._on_disk or len(self._queue) >= self._in_memory
            ):
                self._on_disk.append(observation.id)
            else:
                self._queue.add(observation)
        return kept[:spooled]

    def _refill(self) -> None:
        # Read the oldest observations waiting on disk back into memory, a batch at a time.
        if self._spool is None or not self._on_disk or len(self._queue) >= self.batch_size:
            return
        count = min(len(self._on_disk), self.batch_size - len(self._queue))
        ids = [self._on_disk.popleft() for _ in range(count)]
        loaded = self._spool.load(ids)
        for observation in loaded:
            self._queue.add(observation)
        if self._replaying:
            # What could not be read back is gone (load said so): stop waiting for it.
            self._replaying.difference_update(set(ids) - {o.id for o in loaded})

    def _acknowledge(self, observations: Sequence[Observation]) -> None:
        if self._spool is None:
            return
        ids = [o.id for o in observations]
        try:
            self._spool.acknowledge(ids)
        except OSError as exc:  # they are replayed at the next start, harmlessly
            log.error("cannot acknowledge in the intake spool %s: %s", self._spool.path, exc)
        if self._replaying:
            before = len(self._replaying)
            self._replaying.difference_update(ids)
            self.stats.replayed += before - len(self._replaying)
            if not self._replaying:
                log.info("replayed %d observations from %s", self.stats.replayed, self._spool.path)
        if not self._replaying:
            self._replayed.set()

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
        while self._in_hand or len(self._queue) or self._on_disk:
            if not self._in_hand:
                self._refill()
                self._in_hand = self._queue.drain(self.batch_size)
                if not self._in_hand:
                    continue
            try:
                await self.memory.record_observations(self._in_hand, batch_size=self.batch_size)
            except GraphError as exc:
                if _refused(exc):
                    # Neo4j answered and said no: find the observation it refuses and drop it,
                    # or it would be retried forever (and, spooled, at every start).
                    self._in_hand = await self._write_singly(self._in_hand)
                    continue
                failures += 1
                self.stats.last_error = str(exc)
                self.stats.last_error_at = utc_now()
                log.warning("writing %d observations failed: %s", len(self._in_hand), exc)
                if attempts is not None and failures >= attempts:
                    where = (
                        f"they stay in the spool {self._spool.path} for the next start"
                        if self._spool is not None
                        else "the next rescan finds their files"
                    )
                    log.error("giving up on %d queued observations; %s", self.queue_depth, where)
                    return
                delay = self._backoff[min(failures, len(self._backoff)) - 1]
                if stop is not None and await _stopped_within(stop, delay):
                    return
                continue
            failures = 0
            self._written(self._in_hand)
            self._in_hand = []
        self._idle.set()

    def _written(self, observations: list[Observation]) -> None:
        self._acknowledge(observations)
        self.stats.recorded += len(observations)
        self.stats.batches += 1

    async def _write_singly(self, batch: list[Observation]) -> list[Observation]:
        """Write one at a time; drop what Neo4j refuses; return what could not be tried yet."""
        for index, observation in enumerate(batch):
            try:
                await self.memory.record_observations([observation])
            except GraphError as exc:
                if not _refused(exc):
                    return batch[index:]
                self.stats.rejected += 1
                log.error(
                    "Neo4j refuses observation %s (%s of %r); it is dropped: %s",
                    observation.id,
                    observation.type.value,
                    observation.path,
                    exc,
                )
                self._acknowledge([observation])
                continue
            self._written([observation])
        return []


def through_door(observation: Observation) -> Observation:
    """``observation`` with its metadata admitted (:func:`cognition.sense.door.admit`).

    The path is the ``File`` node's key and stays as the disk names it.
    """
    if not observation.metadata:
        return observation
    change = FileChange(observation.path, observation.metadata, Provenance("file"))
    metadata = dict(admit(change).record.metadata)
    if metadata == observation.metadata:
        return observation
    return observation.model_copy(update={"metadata": metadata})


def _refused(exc: GraphError) -> bool:
    # A client error, or a statement that failed on its values (a path too long to index is
    # Neo.DatabaseError.Statement.ExecutionFailed), is not the server's state: retrying the
    # same observation gets the same answer.
    text = str(exc)
    return isinstance(exc, MemoryQueryError) and (
        "Neo.ClientError" in text or ".Statement." in text
    )


async def _stopped_within(stop: asyncio.Event, seconds: float) -> bool:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        return False
    return True
