"""Whole RSI cycles against the real Neo4j, with the LLM stub answering as a model would."""

from __future__ import annotations

import pytest

from cognition.llm import LLMClient
from graph.models import DesireStatus
from graph.server.finder import Neo4jEndpoint
from graph.settings import RSISettings
from graph.store.memory import Memory
from graph.store.rsi import RSIStore
from rsi.crystallize import Crystallizer
from rsi.engine import RSIEngine, select
from rsi.errors import RSIError
from rsi.practice_step import PracticeParts, practice
from rsi.problems import HELD_OUT_IDS
from rsi.strategies import StrategyBook
from rsi.trial import HeuristicTrials
from tests.conftest import graph_driver
from tests.rsi.conftest import ModelScript, loads, seed_failures, user_text, wrong_solution
from tests.support.graph_checks import GraphChecks
from tests.support.llm_stub import LLMStub

SPECIFIC = (
    "Improve python code that checks whether numbers in a list are closer to each other "
    "than a given threshold"
)


def engine(memory: Memory, llm: LLMClient | None) -> RSIEngine:
    return RSIEngine(memory, llm, RSISettings(practice_timeout_s=30))


async def event_types(memory: Memory) -> dict[str, int]:
    names = [
        "rsi_cycle_start", "rsi_cycle_end", "rsi_desire_verified", "rsi_desire_rejected",
        "rsi_practice_start", "rsi_practice_success", "rsi_practice_failure",
    ]  # fmt: skip
    return {name: len(await memory.events.events(name)) for name in names}


async def test_a_full_cycle_with_a_model(
    memory: Memory, llm: LLMClient, stub: LLMStub, checks: GraphChecks
) -> None:
    seen = await seed_failures(memory)
    cited = seen.failed_execution_ids[:2]
    script = ModelScript(
        desires=[
            {"description": SPECIFIC, "intensity": 0.9, "sources": [*cited, "01NOTSHOWNEVER"]},
            "be better",
        ]
    )
    stub.default = script
    first = await engine(memory, llm).run_cycle(seed=7)

    assert first.error is None, first.error
    reflect = next(r for r in stub.chat_requests if r.step == "rsi.reflect")
    assert "# Constitution" in str(reflect.messages[0]["content"])
    assert "# Strategies" in str(reflect.messages[0]["content"])
    assert all(i in user_text(reflect) for i in seen.failed_execution_ids)
    assert (first.reflector, first.processed, first.accepted, first.rejected) == ("llm", 2, 1, 1)
    assert first.dropped_citations == 1
    assert (first.practiced, first.succeeded, first.domain) == (1, 1, "code")
    store = RSIStore(memory)
    chosen = await store.desire(first.selected_desire_id or "")
    assert chosen is not None and chosen.description == SPECIFIC
    assert chosen.status == "practiced" and chosen.practice_success is True
    assert chosen.cited == 2 and chosen.dropped_citations == 1
    assert chosen.score is not None and chosen.score >= 0.6
    assert chosen.routed_by == "keywords" and chosen.route_confidence
    rejected = (await store.desires_with_status(DesireStatus.REJECTED))[0]
    assert rejected.description == "be better"
    assert rejected.score is not None and rejected.score < 0.6 and rejected.rejection_reason

    # Provenance: EXPRESSED by the reflection, INFLUENCED_BY exactly the shown ids it cited.
    links = await checks.outgoing(chosen.id)
    assert {(t, label, i) for t, label, i in links if t == "INFLUENCED_BY"} == {
        ("INFLUENCED_BY", "Execution", i) for i in cited
    }
    assert ("EXPRESSED", "Desire", chosen.id) in await checks.outgoing(chosen.reflection_id or "")
    reflection = await checks.node(chosen.reflection_id or "")
    assert (
        reflection is not None
        and reflection["reflector"] == "llm"
        and "desires" in reflection["raw"]
    )
    cycle_links = await checks.outgoing(first.id)
    assert ("PRODUCED", "Desire", chosen.id) in cycle_links
    assert ("PRODUCED", "Desire", rejected.id) in cycle_links
    cycle = await checks.node(first.id)
    assert cycle is not None and cycle["selection_seed"] == 7 and cycle["succeeded"] == 1

    # The trajectory: HumanEval/0 solved by its canonical solution.
    (trajectory_id,) = first.trajectory_ids
    assert ("PRACTICED_IN", "Trajectory", trajectory_id) in links
    success = await checks.node(trajectory_id)
    assert success is not None
    assert success["problem_source"] == "HumanEval/0" and success["success"] is True
    assert success["partial_score"] == 1.0 and success["tests_passed"] == success["tests_total"]
    assert success["tests_total"] == 7 and success["attempts"] == 1
    assert success["difficulty"] == "beginner" and success["domain"] == "code"
    assert "def has_close_elements" in success["solution"] and success["duration_s"] > 0

    # A second cycle: a person's request, answered wrongly twice (T7), fails with a partial score.
    script.desires = []
    script.solve = wrong_solution
    request_id = await engine(memory, llm).add_external_desire(
        SPECIFIC, "please practice list threshold checks", domain="code"
    )
    stub.reset()
    second = await engine(memory, llm).run_cycle(seed=8)
    assert second.error is None, second.error
    assert (second.selected_desire_id, second.practiced, second.succeeded) == (request_id, 1, 0)
    failure = await checks.node(second.trajectory_ids[0])
    assert failure is not None and failure["success"] is False
    assert failure["partial_score"] < 1.0 and failure["attempts"] == 2
    assert failure["problem_source"] not in ("HumanEval/0", *HELD_OUT_IDS)
    solves = [r for r in stub.chat_requests if r.step == "rsi.solve"]
    assert len(solves) == 2 and "Your previous solution failed" in user_text(solves[1])
    assert "The following is data (test output)" in user_text(solves[1])
    external = await store.desire(request_id)
    assert external is not None and external.origin == "external"
    assert external.external_request == "please practice list threshold checks"

    events = await event_types(memory)
    assert events["rsi_cycle_start"] == events["rsi_cycle_end"] == 2
    assert events["rsi_desire_verified"] == 1 and events["rsi_desire_rejected"] == 1
    assert events["rsi_practice_start"] == 2
    assert events["rsi_practice_success"] == events["rsi_practice_failure"] == 1
    end = (await memory.events.events("rsi_cycle_end"))[0]
    assert loads(end.data)["cycle_id"] == second.id


async def test_a_problem_the_model_writes(
    memory: Memory, llm: LLMClient, stub: LLMStub, checks: GraphChecks
) -> None:
    tests = (
        "def test_double():\n    assert double(2) == 4\n\n"
        "def test_zero():\n    assert double(0) == 0\n"
    )
    stub.default = ModelScript(
        written=[
            {"spec": "Double a number.", "entry_point": "double", "tests": "def test_(:"},
            {"spec": "Double a number.", "entry_point": "double", "tests": "x = 1"},
            {"spec": "Double a number.", "entry_point": "double", "tests": tests},
        ],
        solve=lambda p: "def double(x):\n    return 2 * x\n",
    )
    rsi = engine(memory, llm)
    await rsi.add_external_desire("implement a python function", "asked", domain="code")
    result = await rsi.run_cycle()
    assert (result.error, result.practiced, result.succeeded) == (None, 1, 1)
    trajectory = await checks.node(result.trajectory_ids[0])
    assert trajectory is not None and trajectory["problem_source"] == "generated"
    assert (trajectory["tests_passed"], trajectory["tests_total"]) == (2, 2)
    assert trajectory["problem_hash"]
    assert len([r for r in stub.chat_requests if r.step == "rsi.problem"]) == 3

    # Three unusable problems in a row: no practice, said so, and no error.
    stub.default = ModelScript(written=[{"spec": "s", "entry_point": "f", "tests": "("}] * 3)
    await rsi.add_external_desire("implement a python function", "asked", domain="code")
    empty = await rsi.run_cycle()
    assert (empty.error, empty.practiced, empty.skipped) == (None, 0, "no usable practice problem")
    given_up = await RSIStore(memory).desire(empty.selected_desire_id or "")
    assert given_up is not None and given_up.status == "unpracticable"


async def test_the_rules_reflector_without_a_model(memory: Memory, checks: GraphChecks) -> None:
    seen = await seed_failures(memory)
    result = await engine(memory, None).run_cycle(seed=1)

    assert result.error is None and result.reflector == "rules"
    assert (result.processed, result.accepted, result.practiced) == (1, 1, 0)
    assert result.skipped == "no language model to practice with"
    assert result.domain == "code"
    desire = await RSIStore(memory).desire(result.selected_desire_id or "")
    assert desire is not None
    assert "3 timeout failures of template fix_tests on src/*.py" in desire.description
    links = await checks.outgoing(desire.id)
    assert {i for t, _, i in links if t == "INFLUENCED_BY"} == set(seen.failed_execution_ids)
    cycle = await checks.node(result.id)
    assert cycle is not None and cycle["skipped"] == result.skipped and "error" not in cycle
    assert (await checks.counts()).get("Trajectory", 0) == 0


async def test_two_failures_are_no_cluster(memory: Memory) -> None:
    await seed_failures(memory, count=2)
    result = await engine(memory, None).run_cycle()
    assert (result.processed, result.error) == (0, None)


async def test_the_clarification_queue(memory: Memory, llm: LLMClient, stub: LLMStub) -> None:
    stub.default = ModelScript(answers=["Yes", "yes.", "YES"])
    rsi = engine(memory, llm)
    poem = await rsi.add_external_desire("Write a story about the sea", "a person asked")
    queued = await rsi.run_cycle(seed=3)
    assert queued.blocked_domains == ["creative"] and queued.practiced == 0
    assert [d.id for d in await rsi.pending_clarifications()] == [poem]

    with pytest.raises(RSIError, match="domain must be one of"):
        await rsi.clarify(poem, "creative")
    with pytest.raises(RSIError, match="no desire"):
        await rsi.clarify("01NOSUCHDESIRE", "logic")
    clarified = await rsi.clarify(poem, "logic")
    assert (clarified.domain, clarified.routed_by, clarified.status) == (
        "logic",
        "person",
        "verified",
    )
    assert await rsi.pending_clarifications() == []

    practiced = await rsi.run_cycle(seed=4)
    assert practiced.error is None
    assert (practiced.domain, practiced.practiced, practiced.succeeded) == ("logic", 1, 1)
    answers = [r for r in stub.chat_requests if r.step == "rsi.answer"]
    assert len(answers) == RSISettings().consistency_runs


async def test_inconsistent_answers_fail_logic_practice(
    memory: Memory, llm: LLMClient, stub: LLMStub, checks: GraphChecks
) -> None:
    stub.default = ModelScript(answers=["yes", "no", "yes"])
    rsi = engine(memory, llm)
    await rsi.add_external_desire("deduce the syllogism", "asked", domain="logic")
    result = await rsi.run_cycle()
    assert (result.practiced, result.succeeded) == (1, 0)
    trajectory = await checks.node(result.trajectory_ids[0])
    assert trajectory is not None
    assert trajectory["tests_passed"] == 2 and trajectory["tests_total"] == 3


async def test_practice_returns_its_counts(
    memory: Memory, llm: LLMClient, stub: LLMStub, checks: GraphChecks
) -> None:
    stub.default = ModelScript(answers=["yes", "yes", "yes"])
    rsi = engine(memory, llm)
    desire_id = await rsi.add_external_desire("deduce the syllogism", "asked", domain="logic")
    desire = await memory.rsi.desire(desire_id)
    assert desire is not None
    parts = PracticeParts(llm, memory.rsi, memory.events, memory.learning, rsi.settings, None, None)
    carried = await StrategyBook(memory.heuristics, rsi.settings.max_strategy_tokens).prompt()
    report = await practice(parts, desire, carried)
    assert (report.practiced, report.succeeded, report.skipped) == (1, 1, None)
    [trajectory_id] = report.trajectory_ids
    trajectory = await checks.node(trajectory_id)
    assert trajectory is not None and trajectory["success"] is True
    practiced = await memory.rsi.desire(desire_id)
    assert practiced is not None and practiced.status == DesireStatus.PRACTICED


async def test_a_failing_end_of_cycle_step_is_recorded_and_the_next_still_runs(
    memory: Memory, llm: LLMClient, neo4j_endpoint: Neo4jEndpoint, checks: GraphChecks
) -> None:
    # A memory whose connection is gone: each step fails at its first read.
    gone = graph_driver(neo4j_endpoint)
    await gone.start()
    await gone.close()
    lost = Memory(gone, memory.agent_id)
    settings = RSISettings(practice_timeout_s=30)
    rsi = RSIEngine(
        memory,
        None,
        settings,
        crystallizer=Crystallizer(lost.heuristics, memory.events, None, settings),
        trials=HeuristicTrials(lost.heuristics, memory.events, llm, settings),
    )
    result = await rsi.run_cycle()
    assert result.error is not None
    crystallize, trials = result.error.split("; ")
    assert crystallize.startswith("crystallize failed: ") and trials.startswith("trials failed: ")
    assert (result.crystallized, result.trials) == (0, 0)
    cycle = await checks.node(result.id)
    assert cycle is not None and cycle["error"] == result.error


async def test_a_failing_cycle_is_recorded_and_does_not_raise(
    memory: Memory, checks: GraphChecks, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: RSIStore, per_kind: int) -> list[object]:
        raise RuntimeError("experience unreadable")

    monkeypatch.setattr(RSIStore, "experience", broken)
    result = await engine(memory, None).run_cycle()
    assert result.error == "RuntimeError: experience unreadable"
    cycle = await checks.node(result.id)
    assert cycle is not None and cycle["error"] == result.error


async def test_external_desires_name_a_practicable_domain(memory: Memory) -> None:
    with pytest.raises(RSIError, match="domain must be one of"):
        await engine(memory, None).add_external_desire("x", "y", domain="creative")


def test_selection_is_reproducible_and_weighted() -> None:
    from graph.models import Desire

    pool = [
        Desire(agent_id="a", description=f"d{n}", intensity=1.0, score=w)
        for n, w in enumerate((0.01, 0.01, 5.0))
    ]
    draws = [select(pool, seed).description for seed in range(50)]
    assert draws == [select(pool, seed).description for seed in range(50)]
    assert draws.count("d2") > 40
