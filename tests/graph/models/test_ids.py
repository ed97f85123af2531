"""Node ids: ULIDs made without python-ulid (its import reads every package's metadata)."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime

from ulid import ULID

from graph.models import Decision, DecisionType, new_id


def test_an_id_is_a_ulid_of_now() -> None:
    before = datetime.now(UTC)
    made = new_id()
    parsed = ULID.from_str(made)  # python-ulid reads it back: the same format
    assert str(parsed) == made and len(made) == 26
    assert abs((parsed.datetime - before).total_seconds()) < 1


def test_ids_sort_by_time_and_never_repeat() -> None:
    first = [new_id() for _ in range(1000)]
    time.sleep(0.002)
    later = new_id()
    assert len(set(first)) == 1000
    assert later > max(first)


def test_a_node_built_after_import_is_validated() -> None:
    # Node models are built on first use (defer_build): validation still applies.
    decision = Decision(agent_id="a", type=DecisionType.WAIT, confidence=0.5)
    assert ULID.from_str(decision.id)
    try:
        Decision(agent_id="a", type=DecisionType.WAIT, confidence=0.5, unknown=1)  # type: ignore[call-arg]
    except ValueError as exc:
        assert "unknown" in str(exc)
    else:
        raise AssertionError("an unknown field must be refused")


def test_ids_made_in_one_millisecond_keep_their_order() -> None:
    # Queries break ties of ``at`` by id: ids made one after another must sort in that order,
    # also within one millisecond (python-ulid counted on within a millisecond too).
    made = [new_id() for _ in range(5000)]
    assert made == sorted(made)
    assert len(set(made)) == len(made)


def test_a_forked_child_does_not_repeat_its_parents_next_id() -> None:
    # A hook forks its vectors child right after writing: both must not count on from the
    # same last id within one millisecond.
    new_id()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next id, to the parent
        os.write(write, new_id().encode())
        os._exit(0)
    mine = new_id()
    os.waitpid(pid, 0)
    theirs = os.read(read, 64).decode()
    os.close(read)
    os.close(write)
    assert len(theirs) == 26 and theirs != mine
