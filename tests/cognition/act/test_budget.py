"""The action budget: a sliding hour, actions at once, tickets given back once."""

from __future__ import annotations

import pytest

from cognition.act.budget import WINDOW_S, ActionBudget, BudgetSnapshot, BudgetTicket
from graph.settings import BudgetSettings


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def budget(per_hour: int = 20, at_once: int = 1) -> tuple[ActionBudget, Clock]:
    clock = Clock()
    settings = BudgetSettings(actions_per_hour=per_hour, max_concurrent=at_once)
    return ActionBudget(settings, clock=clock), clock


def take(b: ActionBudget) -> BudgetTicket:
    ticket = b.try_acquire()
    assert ticket is not None, b.reason()
    return ticket


def test_a_fresh_budget_has_room() -> None:
    b, _ = budget()
    assert b.reason() is None
    assert b.snapshot() == BudgetSnapshot(0, 0, 20, 1, None)


def test_the_hour_is_a_sliding_window() -> None:
    b, clock = budget(per_hour=2, at_once=5)
    take(b).release()
    clock.now += 600
    take(b).release()
    clock.now += 1
    assert b.try_acquire() is None
    reason = b.reason()
    assert reason is not None
    assert "hourly budget spent: 2 actions started in the last hour (limit 2)" in reason
    assert "next slot in 2999 s" in reason
    snap = b.snapshot()
    assert (snap.used_last_hour, snap.running, snap.next_slot_in_s) == (2, 0, 2999.0)

    # The first start leaves the window exactly one hour after it was made.
    clock.now = 1000.0 + WINDOW_S - 0.001
    assert b.try_acquire() is None
    clock.now = 1000.0 + WINDOW_S
    assert b.reason() is None
    take(b).release()
    assert b.try_acquire() is None
    clock.now = 1000.0 + 600 + WINDOW_S
    assert b.snapshot().used_last_hour == 1
    take(b)


def test_released_actions_still_count_against_the_hour() -> None:
    b, _ = budget(per_hour=1, at_once=3)
    take(b).release()
    assert b.try_acquire() is None
    assert b.snapshot().running == 0


def test_concurrency_is_bounded() -> None:
    b, _ = budget(per_hour=100, at_once=2)
    first, second = take(b), take(b)
    assert b.try_acquire() is None
    assert b.reason() == "2 actions running (at most 2 at once)"
    assert b.snapshot().running == 2
    second.release()
    third = take(b)
    assert b.snapshot() == BudgetSnapshot(3, 2, 100, 2, None)
    first.release()
    third.release()
    assert b.snapshot().running == 0


def test_release_is_idempotent() -> None:
    b, _ = budget(per_hour=100, at_once=1)
    ticket = take(b)
    ticket.release()
    ticket.release()
    assert ticket.released
    other = take(b)
    # Releasing the old ticket again must not free the slot the new one holds.
    ticket.release()
    assert b.snapshot().running == 1
    assert b.try_acquire() is None
    other.release()
    assert b.snapshot().running == 0


async def test_ticket_as_async_context_manager() -> None:
    b, _ = budget(per_hour=100, at_once=1)
    async with take(b) as ticket:
        assert not ticket.released
        assert b.try_acquire() is None
    assert ticket.released
    assert b.reason() is None

    with pytest.raises(RuntimeError, match="boom"):
        async with take(b):
            raise RuntimeError("boom")
    assert b.snapshot().running == 0
    async with take(b) as ticket:
        ticket.release()  # released early by hand, then again on exit
    assert b.snapshot().running == 0


def test_zero_actions_per_hour_switches_acting_off() -> None:
    b, _ = budget(per_hour=0)
    assert b.try_acquire() is None
    assert b.reason() == "actions_per_hour is 0: acting is switched off"
    assert b.snapshot().next_slot_in_s is None


def test_the_default_clock_is_monotonic() -> None:
    b = ActionBudget(BudgetSettings())
    take(b).release()
    assert b.snapshot().used_last_hour == 1
