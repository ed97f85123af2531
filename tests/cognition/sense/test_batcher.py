"""The observation batcher: time windows, same file, same category, limits (seed 000)."""

from __future__ import annotations

from typing import Any

import pytest

from cognition.sense.classify import ObservationBatcher
from graph.models.observe import Category, Observation
from tests.support.observations import C, obs

# ---------------------------------------------------------------- batcher


def paths(batches: list[list[Observation]]) -> list[list[str | None]]:
    return [[o.path for o in batch] for batch in batches]


def test_batcher_defaults_match_the_seed() -> None:
    batcher = ObservationBatcher()
    assert (batcher.time_window_s, batcher.max_batch_size) == (2.0, 10)


def test_no_observations_give_no_batches() -> None:
    assert ObservationBatcher().batch([]) == []


def test_one_observation_is_one_batch() -> None:
    only = obs(path="a")
    assert ObservationBatcher().batch([only]) == [[only]]


def test_batches_are_in_time_order() -> None:
    # Different paths and categories, far apart: only time order groups them.
    late = obs(path="late", seconds=10, category=C.KNOWLEDGE)
    early = obs(path="early", seconds=0, category=C.CONFIG)
    middle = obs(path="middle", seconds=5, category=C.INTAKE)
    assert paths(ObservationBatcher().batch([late, early, middle])) == [
        ["early"],
        ["middle"],
        ["late"],
    ]


def test_equal_times_keep_their_input_order() -> None:
    items = [obs(path=str(i), category=C.KNOWLEDGE) for i in range(4)]
    assert paths(ObservationBatcher().batch(items)) == [["0", "1", "2", "3"]]


# Each case: (seconds, path, category) per observation, and the expected batches.
BATCH_CASES = [
    pytest.param(
        [(0, "a", C.KNOWLEDGE), (1.5, "b", C.CONFIG), (2.0, "c", C.INTAKE)],
        [["a", "b", "c"]],
        id="within-window-inclusive",
    ),
    pytest.param(
        [(0, "a", C.KNOWLEDGE), (2.5, "b", C.CONFIG)],
        [["a"], ["b"]],
        id="outside-window",
    ),
    pytest.param(
        [(0, "a", C.KNOWLEDGE), (1.5, "b", C.CONFIG), (3.0, "c", C.INTAKE)],
        [["a", "b"], ["c"]],
        id="window-measured-from-the-first",
    ),
    pytest.param(
        [(0, "a", C.KNOWLEDGE), (1, "b", C.CONFIG), (60, "b", C.INTAKE)],
        [["a", "b"], ["b"]],
        id="same-file-compared-with-the-first-only",
    ),
    pytest.param(
        [(0, "a", C.KNOWLEDGE), (100, "a", C.CONFIG)],
        [["a", "a"]],
        id="same-file-beyond-window",
    ),
    pytest.param(
        [(0, "a", C.KNOWLEDGE), (3600, "b", C.KNOWLEDGE)],
        [["a", "b"]],
        id="same-category-beyond-window",
    ),
    pytest.param(
        [(0, None, C.SYSTEM), (10, None, C.EXECUTION)],
        [[None], [None]],
        id="no-path-is-not-the-same-file",
    ),
]


@pytest.mark.parametrize(("items", "expected"), BATCH_CASES)
def test_batching_rules(
    items: list[tuple[float, str | None, Category]], expected: list[list[str | None]]
) -> None:
    observations = [obs(path=p, seconds=s, category=c) for s, p, c in items]
    assert paths(ObservationBatcher().batch(observations)) == expected


def test_max_batch_size_splits_a_burst() -> None:
    burst = [obs(path=f"f{i}", seconds=i * 0.01, category=C.KNOWLEDGE) for i in range(25)]
    batches = ObservationBatcher().batch(burst)
    assert [len(b) for b in batches] == [10, 10, 5]
    assert [o for b in batches for o in b] == burst


def test_batch_size_one_puts_each_observation_alone() -> None:
    items = [obs(path="same", category=C.KNOWLEDGE) for _ in range(3)]
    assert [len(b) for b in ObservationBatcher(max_batch_size=1).batch(items)] == [1, 1, 1]


def test_zero_window_groups_only_the_same_instant() -> None:
    items = [
        obs(path="a", category=C.KNOWLEDGE),
        obs(path="b", category=C.CONFIG),
        obs(path="c", seconds=0.001, category=C.INTAKE),
    ]
    assert paths(ObservationBatcher(time_window_s=0).batch(items)) == [["a", "b"], ["c"]]


def test_batcher_accepts_any_iterable() -> None:
    items = (obs(path=p, category=C.KNOWLEDGE) for p in "xy")
    assert paths(ObservationBatcher().batch(items)) == [["x", "y"]]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"time_window_s": -1.0}, "time_window_s"), ({"max_batch_size": 0}, "max_batch_size")],
)
def test_batcher_refuses_bad_limits(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ObservationBatcher(**kwargs)
