"""The status line's operations: budget used, executions running, escalations open."""

from __future__ import annotations

import io

from cognition.act.budget import ActionBudget
from graph.models import ActionTarget, Decision, DecisionType, Escalation, Execution
from graph.settings import BudgetSettings
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory
from scheduler.operations import operations_summary


async def test_operations_count_started_running_and_open_escalations(memory: Memory) -> None:
    budget = ActionBudget(BudgetSettings(actions_per_hour=5))
    assert await operations_summary(memory, budget) == (
        "budget 0/5 this hour · running 0 · escalations open 0"
    )
    store = DecisionStore(memory)
    decision = Decision(agent_id=memory.agent_id, type=DecisionType.ACT, confidence=0.9)
    decision_id = await store.record_decision(decision, [], observation_ids=[])
    first = Execution(
        agent_id=memory.agent_id, decision_id=decision_id, target=ActionTarget.DRY_RUN
    )
    await store.start_execution(first)
    await store.finish_execution(first.id, success=False)
    retry = Execution(
        agent_id=memory.agent_id,
        decision_id=decision_id,
        attempt=2,
        target=ActionTarget.DRY_RUN,
        retry_of=first.id,
    )
    await store.start_execution(retry)  # still running
    await store.record_escalation(
        Escalation(agent_id=memory.agent_id, decision_id=decision_id, reason="r")
    )
    # A retry is part of the same action: the budget counts actions, not attempts.
    assert await operations_summary(memory, budget) == (
        "budget 1/5 this hour · running 1 · escalations open 1"
    )


async def test_the_status_line_carries_them(memory: Memory) -> None:
    from scheduler.jobs import StatusLine

    class Quiet:
        stats = type("S", (), {"recorded": 0, "noise_dropped": 0, "last_error": None})()
        queue_depth = 0

        def spool_status(self) -> str:
            return ""

    class Sync:
        last_error = None

    budget = ActionBudget(BudgetSettings())
    out = io.StringIO()
    line = StatusLine(
        Quiet(),  # type: ignore[arg-type]
        Sync(),  # type: ignore[arg-type]
        out=out,
        operations=lambda: operations_summary(memory, budget),
    )
    await line.emit()
    assert "· budget 0/20 this hour · running 0 · escalations open 0 · last error: none" in (
        out.getvalue()
    )
