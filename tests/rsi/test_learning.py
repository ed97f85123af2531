"""Learning that is proven (issue 20): bootstrap practice, credit by outcome, trials, carrying.

Real Neo4j, the scripted LLM stub, practice's real sandbox.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from cognition.llm import LLMClient
from graph.models import Heuristic, HeuristicStatus, HeuristicTrial, Trajectory
from graph.server.finder import Neo4jEndpoint
from graph.settings import RSISettings
from graph.store.heuristics import HeuristicStore
from graph.store.memory import Memory
from graph.store.rsi import RSIStore
from rsi import problems
from rsi.bootstrap import draw_problem, weakest_domain
from rsi.engine import RSIEngine
from rsi.report import build_report
from rsi.strategies import StrategyBook
from rsi.trial import HeuristicTrials, trial_problems, verdict
from scheduler.improvement import build_self_improvement
from tests.rsi.conftest import ModelScript, wrong_solution
from tests.support.graph_checks import GraphChecks
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply
from tests.support.recall_seed import Seeder, seeding

HELPS = "Check empty and single-element inputs before writing the general case."
HURTS = "Return None whenever the input looks unusual, without computing anything."
VAGUE = "Solve problems carefully and correctly with good code quality."
# Desires that match one HumanEval practice problem each (HumanEval/0 and /1).
CLOSE = "Improve python code that checks whether numbers are closer to each other than a threshold"
PARENS = "Improve python code that separates groups of nested parentheses into separate strings"


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


def _settings(**extra: object) -> RSISettings:
    return RSISettings.model_validate({"practice_timeout_s": 30, "trial_problems": 3, **extra})


# --- practice that happens -----------------------------------------------------------------


async def test_a_cycle_with_no_verified_desire_practices_a_bootstrap_desire(
    memory: Memory, llm: LLMClient, stub: LLMStub, checks: GraphChecks, tmp_path: Path
) -> None:
    stub.default = ModelScript(desires=["be better"])  # vague: the verifier rejects it
    engine = RSIEngine(memory, llm, _settings(), root=tmp_path)

    first = await engine.run_cycle(seed=5)

    assert first.error is None, first.error
    assert (first.processed, first.accepted, first.rejected) == (1, 0, 1)
    assert (first.practiced, first.practice_origin, first.domain) == (1, "bootstrap", "code")
    desire = await RSIStore(memory).desire(first.selected_desire_id or "")
    assert desire is not None and desire.origin == "bootstrap" and desire.status == "practiced"
    assert desire.problem_source is not None and desire.problem_source not in problems.HELD_OUT_IDS
    trajectory = await checks.node(first.trajectory_ids[0])
    assert trajectory is not None and trajectory["problem_source"] == desire.problem_source
    assert ("PRODUCED", "Desire", desire.id) in await checks.outgoing(first.id)

    # Code now has a success and math none: the next bootstrap practices math, elsewhere.
    second = await engine.run_cycle(seed=6)
    assert (second.practiced, second.practice_origin, second.domain) == (1, "bootstrap", "math")
    again = await RSIStore(memory).desire(second.selected_desire_id or "")
    assert again is not None and again.problem_source not in (None, desire.problem_source)

    # Without a model nothing is practiced, and the cycle says why; the report counts both.
    idle = await RSIEngine(memory, None, _settings()).run_cycle()
    assert idle.practiced == 0 and idle.skipped is not None
    report = await build_report(HeuristicStore(memory))
    assert (report.overall.cycles, report.overall.practicing, report.overall.bootstrap) == (3, 2, 2)
    assert sum(report.overall.not_practiced.values()) == 1


async def test_the_held_out_split_is_never_drawn_for_bootstrap_practice() -> None:
    for size in (20, 64):
        held = problems.held_out(size)
        assert len(held) == size and held >= problems.HELD_OUT_IDS
        pool = problems.practice_pool(held)
        assert len(pool) == 164 - size and not {p.source for p in pool} & held
        for seed in range(30):
            drawn = draw_problem(pool, "beginner", frozenset(), seed)
            assert drawn is not None and drawn.source not in held
    assert problems.held_out(64) == problems.held_out(64)  # the same split every time


def test_the_weakest_domain_is_the_unpracticed_then_the_least_successful() -> None:
    def done(*outcomes: bool) -> list[Trajectory]:
        return [Trajectory(agent_id="a", domain="x", problem="p", success=o) for o in outcomes]

    domains = ["code", "math", "logic"]
    assert weakest_domain(domains, {}) == "code"
    assert weakest_domain(domains, {"code": done(True)}) == "math"
    history = {"code": done(True, False), "math": done(False), "logic": done(True)}
    assert weakest_domain(domains, history) == "math"


# --- practice credits heuristics -----------------------------------------------------------


async def test_practice_credits_exactly_the_shown_strategies_it_applied_by_outcome(
    memory: Memory,
    llm: LLMClient,
    stub: LLMStub,
    seed: Seeder,
    checks: GraphChecks,
    tmp_path: Path,
) -> None:
    applied, ignored, candidate = await seed.nodes(
        "heuristics",
        {"domain": "code", "content": HELPS, "status": "active"},
        {"domain": "code", "content": "Name variables after what they hold.", "status": "active"},
        {"domain": "code", "content": VAGUE, "status": "candidate"},
    )
    # The reply names one shown strategy, a candidate it was never shown, and a made-up id.
    script = ModelScript(applied=[f"[{applied}]", candidate, "01MADEUP"])
    stub.default = script
    engine = RSIEngine(memory, llm, _settings(), root=tmp_path)
    await engine.add_external_desire(CLOSE, "asked", domain="code")

    good = await engine.run_cycle(seed=1)

    assert (good.practiced, good.succeeded) == (1, 1), good
    solve = next(r for r in stub.chat_requests if r.step == "rsi.solve")
    system = str(solve.messages[0]["content"])
    assert HELPS in system and VAGUE not in system  # a candidate is never carried
    assert "`Applied: <ids>`" in str(solve.messages[1]["content"])
    trajectory = await checks.node(good.trajectory_ids[0])
    assert trajectory is not None and trajectory["applied"] == [applied]
    assert ("APPLIED", "Heuristic", applied) in await checks.outgoing(good.trajectory_ids[0])
    counters = await _counters(checks, applied, ignored, candidate)
    assert counters == {applied: (1, 1, 0), ignored: (0, 0, 0), candidate: (0, 0, 0)}

    # A failed attempt moves harmful on the same strategy, by the same path.
    script.solve = wrong_solution
    await engine.add_external_desire(PARENS, "asked", domain="code")
    bad = await engine.run_cycle(seed=2)
    assert (bad.practiced, bad.succeeded) == (1, 0)
    counters = await _counters(checks, applied, ignored, candidate)
    assert counters == {applied: (2, 1, 1), ignored: (0, 0, 0), candidate: (0, 0, 0)}


async def test_logic_practice_credits_what_its_answers_applied_by_consistency(
    memory: Memory, llm: LLMClient, stub: LLMStub, seed: Seeder, checks: GraphChecks
) -> None:
    [rule] = await seed.nodes(
        "heuristics",
        {"domain": "logic", "content": "Write each premise down first.", "status": "active"},
    )
    script = ModelScript(applied=[rule], answers=["yes", "no", "yes"])
    stub.default = script
    engine = RSIEngine(memory, llm, _settings())
    await engine.add_external_desire("deduce the syllogism", "asked", domain="logic")

    inconsistent = await engine.run_cycle(seed=1)

    assert (inconsistent.practiced, inconsistent.succeeded) == (1, 0)
    answer = next(r for r in stub.chat_requests if r.step == "rsi.answer")
    assert "applied_strategies" in str(answer.messages[1]["content"])
    assert await _counters(checks, rule) == {rule: (1, 0, 1)}


async def _counters(checks: GraphChecks, *ids: str) -> dict[str, tuple[int, int, int]]:
    out = {}
    for i in ids:
        node = await checks.node(i)
        assert node is not None
        out[i] = (node.get("usage_count", 0), node.get("helpful", 0), node.get("harmful", 0))
    return out


# --- a heuristic earns its place -----------------------------------------------------------


def _solves_with(principle: str, helps: bool) -> Callable[[RecordedRequest], Reply]:
    """Right with the principle in the system prompt and wrong without it, or the reverse."""

    def answer(request: RecordedRequest) -> Reply:
        carried = principle in str(request.messages[0]["content"])
        script = ModelScript(solve=lambda p: p.canonical_solution)
        if carried != helps:
            script.solve = wrong_solution
        return script(request)

    return answer


@pytest.mark.parametrize(
    ("principle", "helps", "status", "figures"),
    [
        (HELPS, True, "active", (3, 0, 3, 0)),
        (HURTS, False, "rejected", (0, 3, 0, 3)),
    ],
)
async def test_a_candidate_becomes_active_or_rejected_by_its_paired_trial(
    memory: Memory,
    llm: LLMClient,
    stub: LLMStub,
    seed: Seeder,
    checks: GraphChecks,
    tmp_path: Path,
    principle: str,
    helps: bool,
    status: str,
    figures: tuple[int, int, int, int],
) -> None:
    [held] = await seed.nodes(
        "heuristics", {"domain": "code", "content": VAGUE, "status": "active"}
    )
    [candidate] = await seed.nodes(
        "heuristics", {"domain": "code", "content": principle, "status": "candidate"}
    )
    stub.default = _solves_with(principle, helps)
    store = HeuristicStore(memory)
    book = StrategyBook(store, 2000)
    assert principle not in await book.text()
    trials = HeuristicTrials(
        store, memory.events, llm, _settings(), root=tmp_path, on_change=book.refresh
    )

    [tried] = await trials.run()

    assert tried.id == candidate and tried.status == status
    requests = [r for r in stub.chat_requests if r.step == "rsi.trial"]
    assert len(requests) == 6  # three practice problems, each with and without it
    assert all(r.body is not None and r.body["temperature"] == 0.0 for r in requests)
    # Both arms carry the active strategies; only one carries the candidate.
    assert all(VAGUE in str(r.messages[0]["content"]) for r in requests)
    assert sum(principle in str(r.messages[0]["content"]) for r in requests) == 3
    tried_in = [o for o in await checks.outgoing(candidate) if o[0] == "TRIED_IN"]
    [(_, label, trial_id)] = tried_in
    assert label == "HeuristicTrial"
    trial = await checks.node(trial_id)
    assert trial is not None
    assert not set(trial["problems"]) & problems.HELD_OUT_IDS
    assert (
        sum(trial["with_passed"]),
        sum(trial["without_passed"]),
        trial["with_only"],
        trial["without_only"],
    ) == figures
    assert trial["verdict"] == ("kept" if helps else "rejected")
    assert trial["p_value"] == pytest.approx(0.25)  # exact McNemar, 3 discordant pairs of 3
    node = await checks.node(candidate)
    assert node is not None and node["status"] == status and node["trial_summary"]
    # Carried only when active; a rejected heuristic never is.
    assert (principle in await book.text()) == helps
    assert (candidate in (await book.prompt()).strategy_ids) == helps
    assert held in (await book.prompt()).strategy_ids


async def test_a_trial_with_failed_requests_is_inconclusive_and_changes_nothing(
    memory: Memory, llm: LLMClient, stub: LLMStub, seed: Seeder, tmp_path: Path
) -> None:
    [candidate] = await seed.nodes(
        "heuristics", {"domain": "code", "content": HELPS, "status": "candidate"}
    )
    stub.default = Reply.error(500)
    trials = HeuristicTrials(
        HeuristicStore(memory), memory.events, llm, _settings(trial_problems=1)
    )
    [tried] = await trials.run()
    assert tried.status == "candidate"
    [row] = await HeuristicStore(memory).with_trials()
    assert row.heuristic.id == candidate and row.trials[0].verdict == "inconclusive"
    assert row.trials[0].errors >= 1


def test_the_verdict_allows_the_margin_and_no_more() -> None:
    def trial(with_only: int, without_only: int, margin: int, wins: int = 0) -> HeuristicTrial:
        return HeuristicTrial(
            agent_id="a",
            heuristic_id="h",
            domain="code",
            problems=["p"] * 8,
            with_passed=[True] * with_only + [False] * (8 - with_only),
            without_passed=[False] * with_only + [True] * without_only,
            with_only=with_only,
            without_only=without_only,
            margin=margin,
            min_wins=wins,
        )

    assert verdict(trial(0, 0, 0))[0] == "active"  # not worse: kept
    assert verdict(trial(1, 2, 0))[0] == "rejected"
    assert verdict(trial(1, 2, 1))[0] == "active"
    assert verdict(trial(0, 3, 1))[0] == "rejected"
    rejected, why = verdict(trial(0, 3, 1))
    assert rejected == "rejected" and "without-only 3" in why


def test_a_heuristic_whose_trial_shows_no_win_is_not_carried() -> None:
    def trial(with_only: int, without_only: int) -> HeuristicTrial:
        return HeuristicTrial(
            agent_id="a", heuristic_id="h", domain="code", problems=["p"] * 8,
            with_only=with_only, without_only=without_only,
        )  # fmt: skip

    assert (
        RSISettings().trial_min_wins == 1
        and HeuristicTrial(agent_id="a", heuristic_id="h", domain="code").min_wins == 1
    )
    status, why = verdict(trial(0, 0))  # "not worse", but it changed nothing
    assert status == "rejected" and "no win" in why
    assert verdict(trial(2, 2))[0] == "rejected"
    assert verdict(trial(1, 2))[0] == "rejected"
    assert verdict(trial(1, 0))[0] == "active"
    assert verdict(trial(3, 1))[0] == "active"


def test_a_candidate_meets_the_same_problems_every_time() -> None:
    pool = problems.practice_pool()
    first = trial_problems("01HEURISTIC", pool, 8)
    assert first == trial_problems("01HEURISTIC", pool, 8) and len(set(first)) == 8
    assert first != trial_problems("01OTHER", pool, 8)


async def test_crystallized_heuristics_start_as_candidates_and_are_not_carried_until_kept(
    memory: Memory, llm: LLMClient, stub: LLMStub, seed: Seeder, tmp_path: Path
) -> None:
    await seed.nodes(
        "trajectories",
        *({"domain": "code", "problem": f"p{n}", "success": True} for n in range(5)),
    )
    bad = _solves_with(HURTS, False)

    def answer(request: RecordedRequest) -> Reply:
        if request.step == "rsi_crystallize":
            return Reply.json({"principle": HURTS})
        if request.step == "rsi_actionable":
            return Reply.json({"answer": "YES"})  # the model calls everything actionable
        return bad(request)

    stub.default = answer
    parts = await build_self_improvement(_settings(), memory, llm, tmp_path)
    cycle = await parts.engine.run_cycle(seed=3)

    assert (cycle.crystallized, cycle.trials, cycle.rejected_heuristics) == (1, 1, 1), cycle
    [h] = await HeuristicStore(memory).with_trials()
    assert (h.heuristic.content, h.heuristic.status) == (HURTS, "rejected")
    assert HURTS not in await parts.strategies.text()
    stub.reset()
    await parts.engine.run_cycle(seed=4)
    assert stub.chat_requests and all(
        HURTS not in str(r.messages[0]["content"])
        for r in stub.chat_requests
        if r.step != "rsi.trial"
    )


def test_status_enums_cover_what_the_graph_holds() -> None:
    assert {s.value for s in HeuristicStatus} == {"candidate", "active", "rejected", "pruned"}
    assert Heuristic(agent_id="a", domain="code", content="x").status == "candidate"
