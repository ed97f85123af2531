"""Credit: a decision is APPLIED only to the strategies DECIDE names; outcomes move the counters."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cognition.carried import applied_strategies
from cognition.learn.learner import OutcomeLearner
from graph.models import new_id
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.scheduler.test_loop import STEP_REPLIES, _rig
from tests.support.graph_checks import open_checks
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply
from tests.support.recall_seed import Seeder, seeding


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


async def _heuristics(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> dict[str, dict[str, int]]:
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        rows = await checks.memory.read("checks/heuristics")
    return {
        r["heuristic"]["id"]: {
            "usage": r["heuristic"].get("usage_count", 0),
            "helpful": r["heuristic"].get("helpful", 0),
            "harmful": r["heuristic"].get("harmful", 0),
            "applied": r["applied"],
        }
        for r in rows
    }


def test_only_shown_ids_are_kept_once_each() -> None:
    assert applied_strategies(["[b]", "a", " b ", "zzz", "a"], ["a", "b", "c"]) == ["b", "a"]
    assert applied_strategies(["a"], []) == []


@pytest.mark.parametrize("deliberation", ["stepwise", "single_call"])
async def test_a_decision_applies_only_what_decide_names_and_success_credits_it(
    tmp_path: Path,
    memory: Memory,
    seed: Seeder,
    neo4j_endpoint: Neo4jEndpoint,
    deliberation: str,
) -> None:
    used, unused = await seed.nodes(
        "heuristics",
        {"domain": "content", "content": "File intake notes under knowledge/.", "status": "active"},
        {"domain": "code", "content": "Run the tests before a commit.", "status": "active"},
    )

    decide = {
        **STEP_REPLIES["DECIDE"],
        "applied_strategies": [f"[{used}]", "01NOTSHOWN0000000000000000"],
    }

    def answer(request: RecordedRequest) -> Reply:
        if request.step == "DELIBERATE":  # single_call: the five step objects in one reply
            keys = ["observe", "categorize", "match_pattern", "evaluate", "decide"]
            steps = [*list(STEP_REPLIES.values())[:4], decide]
            return Reply.json(dict(zip(keys, steps, strict=True)))
        return Reply.json(decide if request.step == "DECIDE" else STEP_REPLIES[request.step or ""])

    with LLMStub(default=answer) as stub:
        settings = {"llm.base_url": stub.base_url, "llm.deliberation": deliberation}
        async for rig in _rig(tmp_path, memory, reasoner="llm", **settings):
            (rig.root / "_intake" / "idea.md").write_text("# An idea\n")
            rig.claude_does(edits=[{"path": "knowledge/idea.md", "content": "# Idea\n"}])
            await rig.observe()
            report = await rig.tick_and_act()
            [decision] = report.decisions
            [outcome] = report.outcomes
            assert outcome.success
            # Every request carried the one system prompt, first: constitution and strategies.
            systems = {r.messages[0]["content"] for r in stub.chat_requests}
            asked = 5 if deliberation == "stepwise" else 1
            assert len(stub.chat_requests) == asked and len(systems) == 1
            [system] = systems
            assert system.startswith("# Constitution") and f"[{used}]" in system
            assert f"[{unused}]" in system
            assert "applied_strategies" in stub.chat_requests[-1].messages[1]["content"]
            strategies = json.loads((rig.root / ".nous" / "strategies.json").read_text())
            assert {h["id"] for h in strategies["heuristics"]} == {used, unused}

    links = await memory.read("audit/decision_links", decision_id=decision.id)
    assert {r["type"]: r["count"] for r in links}["APPLIED"] == 1
    counters = await _heuristics(neo4j_endpoint, memory)
    assert counters[used] == {"usage": 1, "helpful": 1, "harmful": 0, "applied": 1}
    assert counters[unused] == {"usage": 0, "helpful": 0, "harmful": 0, "applied": 0}


async def test_the_rules_reasoner_applies_none(
    tmp_path: Path, memory: Memory, seed: Seeder, neo4j_endpoint: Neo4jEndpoint
) -> None:
    await seed.nodes("heuristics", {"domain": "content", "content": "File it.", "status": "active"})
    async for rig in _rig(tmp_path, memory):
        (rig.root / "_intake" / "idea.md").write_text("# An idea\n")
        rig.claude_does(edits=[{"path": "knowledge/idea.md", "content": "# Idea\n"}])
        await rig.observe()
        report = await rig.tick_and_act()
        assert [d.reasoner.value for d in report.decisions] == ["rules"]
    [counters] = (await _heuristics(neo4j_endpoint, memory)).values()
    assert counters == {"usage": 0, "helpful": 0, "harmful": 0, "applied": 0}


async def test_credit_moves_by_outcome_and_never_for_a_dry_run(
    memory: Memory, seed: Seeder, neo4j_endpoint: Neo4jEndpoint
) -> None:
    [h] = await seed.nodes("heuristics", {"domain": "code", "content": "c", "status": "active"})
    learner = OutcomeLearner(memory)
    decisions = []
    for n in range(4):
        decision = await memory.learning.decision(await seed.decision(f"notes/{n}.md", minutes=n))
        assert decision is not None
        await seed.nodes("applied", {"decision_id": decision.id, "heuristic_id": h})
        decisions.append(decision)
    live, dry_run, ok, dry_target = decisions
    await seed.nodes(
        "executions",
        {"decision_id": dry_run.id, "target": "claude_code", "success": True, "dry_run": True},
        {"decision_id": live.id, "target": "claude_code", "success": False, "dry_run": False},
        {"decision_id": dry_target.id, "target": "dry_run", "success": True},
    )

    await learner.learn(live, success=False, error="it broke", execution_id=new_id())
    await learner.learn(dry_run, success=True)
    await learner.learn(dry_target, success=True)
    await learner.learn(ok, success=True)
    await learner.learn(ok, success=True)  # learned once: a repeat changes nothing

    [counters] = (await _heuristics(neo4j_endpoint, memory)).values()
    assert (counters["helpful"], counters["harmful"], counters["applied"]) == (1, 1, 4)
    events = await memory.events.events("outcome_learned")
    assert sorted(e.data["heuristics_credited"] for e in events) == [0, 0, 1, 1]


async def test_a_wait_or_investigate_outcome_credits_what_it_applied_once(
    memory: Memory, seed: Seeder, neo4j_endpoint: Neo4jEndpoint
) -> None:
    [h] = await seed.nodes("heuristics", {"domain": "code", "content": "c", "status": "active"})
    learner = OutcomeLearner(memory)
    waited = await seed.decision("notes/w.md", minutes=1)
    await seed.nodes("applied", {"decision_id": waited, "heuristic_id": h})

    # A WAIT closed after its looks, or one its successor settled (settle_chain), is counted.
    assert await learner.count(waited, None, 0.5, False)
    assert not await learner.count(waited, None, 0.5, False)  # counted once

    [counters] = (await _heuristics(neo4j_endpoint, memory)).values()
    assert (counters["helpful"], counters["harmful"]) == (0, 1)
