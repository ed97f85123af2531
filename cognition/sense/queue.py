"""Priority queue of classified observations (seed 000, section 1.2).

Lower numbers come out first; within one urgency, observations leave in the
order they arrived.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from types import MappingProxyType

from cognition.errors import CognitionError
from graph.models.observe import Observation, Urgency

# Seed 000's priority map. The gaps leave room for levels in between.
PRIORITY: Mapping[Urgency, int] = MappingProxyType(
    {
        Urgency.CRITICAL: 0,
        Urgency.URGENT: 10,
        Urgency.ROUTINE: 20,
        Urgency.LOW: 30,
        Urgency.NOISE: 100,
    }
)


# (priority, sequence, observation). The sequence is unique, so two entries
# never tie and the observation itself is never compared.
_Entry = tuple[int, int, Observation]


class QueueFullError(CognitionError, OverflowError):
    """``ObservationQueue.add`` was called on a queue already holding ``max_size`` items."""


class ObservationQueue:
    """Observations ordered by urgency, first in first out within one urgency.

    ``max_size=None`` means unbounded. A bounded queue that is full refuses
    the new observation with :class:`QueueFullError` rather than dropping
    something silently: the caller decides what to give up, and the periodic
    index sync rescans the tree for any file change that was refused.
    """

    def __init__(self, max_size: int | None = None) -> None:
        if max_size is not None and max_size < 1:
            raise ValueError(f"max_size must be at least 1 or None, not {max_size}")
        self._max_size = max_size
        self._heap: list[_Entry] = []
        self._sequence = 0

    @property
    def max_size(self) -> int | None:
        """The most observations the queue holds, or ``None`` for no limit."""
        return self._max_size

    def add(self, observation: Observation) -> None:
        """Queue ``observation`` at the priority of its urgency.

        Raises :class:`QueueFullError` when the queue already holds ``max_size``.
        """
        if self._max_size is not None and len(self._heap) >= self._max_size:
            raise QueueFullError(
                f"observation queue is full ({self._max_size} items); "
                f"{observation.type.value} for {observation.path!r} was not queued"
            )
        self._sequence += 1
        heapq.heappush(self._heap, (PRIORITY[observation.urgency], self._sequence, observation))

    def drain(self, max_items: int | None = None) -> list[Observation]:
        """Remove and return up to ``max_items`` observations, most urgent first.

        ``None`` drains the whole queue.
        """
        if max_items is not None and max_items < 0:
            raise ValueError(f"max_items must not be negative, not {max_items}")
        count = len(self._heap) if max_items is None else min(max_items, len(self._heap))
        return [heapq.heappop(self._heap)[2] for _ in range(count)]

    def __len__(self) -> int:
        return len(self._heap)

    @property
    def is_empty(self) -> bool:
        """True when nothing is queued (a property, as in seed 000)."""
        return not self._heap
