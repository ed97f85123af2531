"""One open escalation per block: the same template, path and reason again is a repeat."""

from __future__ import annotations

from cognition.act.escalate import escalate
from graph.models import Decision, DecisionType, Observation, ObservationType
from graph.store.memory import Memory

BLOCKED = "blocked by censor: check_dependencies|setup.py (pip check exited with status 1)"


async def _decided(memory: Memory, path: str, template: str | None) -> Decision:
    observation = Observation(
        agent_id=memory.agent_id, type=ObservationType.FILE_MODIFIED, path=path
    )
    await memory.record_observations([observation])
    decision = Decision(
        agent_id=memory.agent_id,
        type=DecisionType.ESCALATE,
        confidence=0.8,
        path=path,
        template=template,
        reasoning="act with check_dependencies -> " + BLOCKED,
    )
    await memory.decisions.record_decision(decision, [], observation_ids=[observation.id])
    return decision


async def _escalate(memory: Memory, decision: Decision, reason: str = BLOCKED) -> str:
    return await escalate(memory.decisions, decision, reason=reason, message="look at it")


async def test_a_block_met_again_repeats_the_open_escalation(memory: Memory) -> None:
    first = await _decided(memory, "setup.py", "check_dependencies")
    opened = await _escalate(memory, first)
    again = [await _decided(memory, "setup.py", "check_dependencies") for _ in range(3)]
    assert [await _escalate(memory, d) for d in again] == [opened] * 3
    assert all(d.status == "escalated" for d in again)
    [row] = await memory.read("audit/escalation", escalation_id=opened)
    assert row["escalation"]["repeats"] == 3 and row["decision_id"] == first.id
    open_ = await memory.read("audit/open_escalations", limit=10)
    assert [r["id"] for r in open_] == [opened]
    # A person asking about a repeat finds the escalation it repeats.
    shown = await memory.read("audit/escalations_for_decision", decision_id=again[-1].id)
    assert [r["id"] for r in shown] == [opened]


async def test_another_path_reason_or_a_closed_escalation_is_asked_anew(memory: Memory) -> None:
    first = await _decided(memory, "setup.py", "check_dependencies")
    opened = await _escalate(memory, first)
    elsewhere = await _decided(memory, "pyproject.toml", "check_dependencies")
    assert await _escalate(memory, elsewhere) != opened
    other_reason = await _decided(memory, "setup.py", "check_dependencies")
    assert await _escalate(memory, other_reason, "confidence 0.20 is too low") != opened
    no_template = await _decided(memory, "setup.py", None)
    assert await _escalate(memory, no_template) != opened
    await memory.write(
        "admin/close_escalation",
        escalation_id=opened,
        status="resolved",
        note="fixed the requirements",
        at=first.at,
        retry=False,
        retry_status="retry_requested",
    )
    later = await _decided(memory, "setup.py", "check_dependencies")
    assert await _escalate(memory, later) != opened
