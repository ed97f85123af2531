"""``nous escalations``, ``nous censors`` and ``nous goals``: list, show and close, in the graph."""

from __future__ import annotations

import json
import logging

import pytest

from graph.models import Decision, DecisionType, Escalation, Observation, ObservationType
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory
from graph.store.recall import RecallRequest, RecallStore
from tests.scheduler.cli.conftest import Nous
from tests.support.recall_seed import Seeder


async def _escalated(memory: Memory, path: str) -> tuple[str, str, str]:
    """(escalation id, decision id, observation id) of an escalated decision about ``path``."""
    observation = Observation(
        agent_id=memory.agent_id, type=ObservationType.FILE_CREATED, path=path
    )
    await memory.record_observations([observation])
    decision = Decision(
        agent_id=memory.agent_id,
        type=DecisionType.ESCALATE,
        confidence=0.2,
        path=path,
        reasoning="unsure what this file is",
    )
    decisions = DecisionStore(memory)
    decision_id = await decisions.record_decision(decision, [], observation_ids=[observation.id])
    escalation = Escalation(
        agent_id=memory.agent_id,
        decision_id=decision_id,
        reason="confidence 0.20 is below the escalation threshold",
        priority="high",
        message="Please look at _intake/odd.bin: Nous could not decide.",
    )
    await decisions.record_escalation(escalation)
    return escalation.id, decision_id, observation.id


async def test_an_escalation_is_logged_listed_shown_and_resolved_with_retry(
    nous: Nous, memory: Memory, seeder: Seeder, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="graph.store.decisions"):
        esc_id, decision_id, obs_id = await _escalated(memory, "_intake/odd.bin")
    assert f"nous escalations show {esc_id}" in caplog.text

    listed = await nous("escalations")
    assert listed.code == 0
    assert esc_id in listed.out and "_intake/odd.bin" in listed.out
    assert max(len(line) for line in listed.out.splitlines()) <= 100

    shown = await nous("escalations", "show", esc_id)
    assert shown.code == 0
    assert "Please look at _intake/odd.bin" in shown.out
    assert decision_id in shown.out and f"nous escalations resolve {esc_id}" in shown.out

    resolved = await nous("escalations", "resolve", esc_id, "--note", "renamed it", "--retry")
    assert resolved.code == 0, resolved.err
    assert "will be decided again (1 observations handed back)" in resolved.out
    [row] = await memory.read("audit/escalation", escalation_id=esc_id)
    assert row["escalation"]["status"] == "resolved"
    assert row["escalation"]["note"] == "renamed it"
    assert row["escalation"]["resolved_at"] is not None
    decision = await memory.read("audit/decision", decision_id=decision_id)
    assert decision[0]["decision"]["status"] == "retry_requested"
    unprocessed = await DecisionStore(memory).unprocessed_observations(limit=10)
    assert [o.id for o in unprocessed] == [obs_id]
    assert [e.data["note"] for e in await memory.events.events("escalation_resolved")] == [
        "renamed it"
    ]
    assert len(await memory.events.events("decision_retry_requested")) == 1
    assert "no open escalations" in (await nous("escalations")).out


async def test_dismiss_and_what_is_wrong(nous: Nous, memory: Memory, seeder: Seeder) -> None:
    esc_id, decision_id, _ = await _escalated(memory, "_intake/dup.md")
    dismissed = await nous("escalations", "dismiss", esc_id, "--note", "a duplicate", "--json")
    assert dismissed.code == 0
    assert json.loads(dismissed.out)["status"] == "dismissed"
    [row] = await memory.read("audit/escalation", escalation_id=esc_id)
    assert row["escalation"]["status"] == "dismissed"
    # Dismissing does not hand the decision back.
    decision = await memory.read("audit/decision", decision_id=decision_id)
    assert decision[0]["decision"]["status"] == "escalated"
    assert len(await memory.events.events("escalation_dismissed")) == 1

    missing = await nous("escalations", "show", "NOPE")
    assert missing.code == 1 and "no escalation 'NOPE'" in missing.err
    empty_note = await nous("escalations", "resolve", esc_id, "--note", " ")
    assert empty_note.code == 2 and "--note" in empty_note.err


async def test_a_lifted_censor_stops_blocking_and_stays(
    nous: Nous, memory: Memory, seeder: Seeder
) -> None:
    trigger = "analyze_knowledge on knowledge/*.md"
    [censor_id] = await seeder.nodes(
        "censors",
        {
            "trigger_pattern": trigger,
            "reason": "permission denied",
            "severity": "block",
            "status": "active",
            "fire_count": 2,
        },
    )
    assert (await memory.censors.censor_by_trigger(trigger)) is not None
    listed = await nous("censors")
    assert censor_id in listed.out and "block" in listed.out

    lifted = await nous("censors", "lift", censor_id, "--note", "permissions fixed")
    assert lifted.code == 0, lifted.err
    # check_censor looks the censor up by trigger: a lifted one no longer blocks.
    assert await memory.censors.censor_by_trigger(trigger) is None
    assert await memory.censors.active_censors() == []
    rows = await memory.read("audit/censors", limit=10)
    assert [(r["id"], r["status"]) for r in rows] == [(censor_id, "lifted")]
    assert len(await memory.events.events("censor_lifted")) == 1
    assert (await nous("censors", "lift", "NOPE", "--note", "x")).code == 1


async def test_goals_are_added_listed_and_completed(nous: Nous, memory: Memory) -> None:
    added = await nous("goals", "add", "Keep the glossary current", "--priority", "high", "--json")
    assert added.code == 0, added.err
    goal_id = json.loads(added.out)["id"]
    recall = RecallStore(memory)
    active = await recall.recall(RecallRequest(limits={"goals": 10}))
    assert [g.id for g in active.goals] == [goal_id]
    listed = await nous("goals")
    assert "Keep the glossary current" in listed.out and "high" in listed.out

    done = await nous("goals", "done", goal_id)
    assert done.code == 0, done.err
    assert (await recall.recall(RecallRequest(limits={"goals": 10}))).goals == []
    [row] = await memory.read("audit/goals", limit=10)
    assert row["completed_at"] is not None
    assert (await nous("goals", "done", "NOPE")).code == 1
    assert (await nous("goals", "add", "  ")).code == 2
