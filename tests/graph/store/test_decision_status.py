"""Decision status: one enum, its transitions in one place, a wrong move an error."""

from __future__ import annotations

import pytest

from graph.models import Decision, DecisionStatus, DecisionType
from graph.store.decisions import (
    INITIAL,
    TRANSITIONS,
    DecisionStatusError,
    DecisionStore,
    check_transition,
)
from graph.store.memory import Memory

S = DecisionStatus


def test_every_status_has_its_transitions_and_final_ones_go_nowhere() -> None:
    assert set(TRANSITIONS) == set(DecisionStatus)
    for final in (S.DONE, S.FAILED, S.SUPERSEDED, S.CLOSED, S.RETRY_REQUESTED):
        assert TRANSITIONS[final] == frozenset()
    # An escalation waits for a person, whose only move for it is a retry.
    assert TRANSITIONS[S.ESCALATED] == frozenset({S.RETRY_REQUESTED})
    assert check_transition(S.DECIDED, S.ACTING) is S.ACTING
    with pytest.raises(DecisionStatusError, match="from done to acting"):
        check_transition(S.DONE, S.ACTING)
    with pytest.raises(DecisionStatusError):
        check_transition(S.WAITING, S.DONE)


async def test_the_store_refuses_a_wrong_move(memory: Memory) -> None:
    store = DecisionStore(memory)
    decision = Decision(agent_id=memory.agent_id, type=DecisionType.WAIT, confidence=0.4)
    decision.status = S.WAITING
    await store.record_decision(decision, [], observation_ids=[])
    with pytest.raises(DecisionStatusError):
        await store.move(decision, S.DONE)
    with pytest.raises(DecisionStatusError, match="move"):
        await store.settle(decision.id, status="done")
    await store.move(decision, S.SUPERSEDED)
    assert decision.status is S.SUPERSEDED
    rows = await memory.read("audit/recent_decisions", limit=1)
    assert rows[0]["status"] == "superseded"
    done = Decision(agent_id=memory.agent_id, type=DecisionType.ACT, confidence=0.9)
    done.status = S.DONE
    assert S.DONE not in INITIAL
    with pytest.raises(DecisionStatusError):
        await store.record_decision(done, [], observation_ids=[])


def test_no_status_literals_in_the_loop_modules() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[3] / "cognition"
    files = [root / "loop.py", root / "follow_up.py", root / "learn" / "settle.py"]
    files += [root / "chat" / "layer.py", root / "act" / "plan.py"]
    for path in files:
        text = path.read_text()
        for status in DecisionStatus:
            assert f'"{status.value}"' not in text, f"{path}: literal {status.value!r}"
