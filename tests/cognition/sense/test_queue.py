"""The observation priority queue: urgency first, then arrival (seed 000)."""

from __future__ import annotations

import pytest

from cognition.sense.queue import PRIORITY, ObservationQueue, QueueFullError
from tests.support.observations import U, obs

# ---------------------------------------------------------------- queue


def test_priority_table_matches_the_seed() -> None:
    assert dict(PRIORITY) == {
        U.CRITICAL: 0,
        U.URGENT: 10,
        U.ROUTINE: 20,
        U.LOW: 30,
        U.NOISE: 100,
    }


def test_queue_orders_by_urgency_then_arrival() -> None:
    queue = ObservationQueue()
    arrivals = [
        ("r1", U.ROUTINE),
        ("n1", U.NOISE),
        ("l1", U.LOW),
        ("c1", U.CRITICAL),
        ("r2", U.ROUTINE),
        ("u1", U.URGENT),
        ("c2", U.CRITICAL),
        ("r3", U.ROUTINE),
    ]
    for name, urgency in arrivals:
        queue.add(obs(path=name, urgency=urgency))

    assert [o.path for o in queue.drain()] == ["c1", "c2", "u1", "r1", "r2", "r3", "l1", "n1"]
    assert queue.is_empty


@pytest.mark.parametrize(
    ("max_items", "taken", "left"),
    [(None, 5, 0), (0, 0, 5), (2, 2, 3), (5, 5, 0), (9, 5, 0)],
)
def test_drain_takes_up_to_max_items_most_urgent_first(
    max_items: int | None, taken: int, left: int
) -> None:
    queue = ObservationQueue()
    urgencies = [U.LOW, U.CRITICAL, U.ROUTINE, U.URGENT, U.NOISE]
    for urgency in urgencies:
        queue.add(obs(path=urgency.value, urgency=urgency))

    drained = queue.drain(max_items)

    order = ["critical", "urgent", "routine", "low", "noise"]
    assert [o.path for o in drained] == order[:taken]
    assert len(queue) == left
    assert [o.path for o in queue.drain()] == order[taken:]


def test_drain_refuses_a_negative_count() -> None:
    with pytest.raises(ValueError, match="negative"):
        ObservationQueue().drain(-1)


def test_len_and_is_empty() -> None:
    queue = ObservationQueue()
    assert queue.is_empty
    assert len(queue) == 0
    queue.add(obs())
    assert not queue.is_empty
    assert len(queue) == 1


def test_full_queue_refuses_with_a_clear_error_and_keeps_its_items() -> None:
    queue = ObservationQueue(max_size=2)
    queue.add(obs(path="a"))
    queue.add(obs(path="b"))

    with pytest.raises(QueueFullError, match=r"full \(2 items\).*'c'"):
        queue.add(obs(path="c", urgency=U.CRITICAL))
    assert isinstance(QueueFullError("x"), OverflowError)
    assert [o.path for o in queue.drain(1)] == ["a"]

    queue.add(obs(path="c"))
    assert [o.path for o in queue.drain()] == ["b", "c"]


def test_queue_size_limit_must_be_positive() -> None:
    assert ObservationQueue().max_size is None
    assert ObservationQueue(max_size=5).max_size == 5
    with pytest.raises(ValueError, match="max_size"):
        ObservationQueue(max_size=0)
