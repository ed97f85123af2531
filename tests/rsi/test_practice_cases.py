"""Practice keeps verified attempts as cases and is shown similar ones before it tries."""

from __future__ import annotations

from pathlib import Path

from cognition.cases import CaseBank
from cognition.llm import LLMClient
from graph.models import CaseSource, Desire, HeuristicStatus
from graph.server.finder import Neo4jEndpoint
from graph.settings import CaseSettings, RSISettings
from graph.store.cases import CaseStore
from graph.store.heuristics import HeuristicStore
from graph.store.memory import Memory
from rsi import practice as practice_module
from rsi import problems
from rsi.crystallize import Crystallizer
from rsi.engine import RSIEngine
from rsi.practice import Recent, generated_problem
from rsi.practice_step import keep_case
from rsi.trial import HeuristicTrials
from tests.rsi.conftest import ModelScript, user_text, wrong_solution
from tests.rsi.test_engine import SPECIFIC
from tests.support.graph_checks import GraphChecks
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply
from tests.support.recall_seed import seeding

NOTHING_RECENT = Recent(frozenset(), frozenset(), ())


def first_wrong_then_right() -> ModelScript:
    tries: list[str] = []

    def solve(problem: problems.Problem) -> str:
        tries.append(problem.source)
        return wrong_solution(problem) if len(tries) == 1 else problem.canonical_solution

    return ModelScript(solve=solve)


async def test_only_a_verified_pass_becomes_a_case_with_the_error_that_taught_it(
    memory: Memory, llm: LLMClient, stub: LLMStub, checks: GraphChecks, tmp_path: Path
) -> None:
    bank = CaseBank(CaseStore(memory), CaseSettings())
    rsi = RSIEngine(memory, llm, RSISettings(practice_timeout_s=30), root=tmp_path, cases=bank)
    stub.default = ModelScript(solve=wrong_solution)
    await rsi.add_external_desire(SPECIFIC, "asked", domain="code")
    failed = await rsi.run_cycle(seed=1)
    assert (failed.practiced, failed.succeeded) == (1, 0)
    assert await bank.store.active() == []  # a failed attempt teaches nothing as a case

    stub.default = first_wrong_then_right()
    await rsi.add_external_desire(SPECIFIC, "asked again", domain="code")
    passed = await rsi.run_cycle(seed=2)
    assert (passed.practiced, passed.succeeded) == (1, 1)
    [(case, _)] = await bank.store.active()
    assert case.source == CaseSource.PRACTICE and case.domain == "code"
    assert "return None" in case.failed_attempt and "tests passed" in case.error
    assert "def " in case.worked and "return None" not in case.worked
    assert ("FROM", "Trajectory", passed.trajectory_ids[0]) in await checks.outgoing(case.id)


async def test_practice_is_shown_similar_cases_fenced_and_credits_them_by_outcome(
    memory: Memory, llm: LLMClient, stub: LLMStub, tmp_path: Path
) -> None:
    bank = CaseBank(CaseStore(memory), CaseSettings())
    problem = problems.by_id("HumanEval/0")
    hint = "Compare every pair of numbers; a threshold check"
    case_id = await bank.write(
        domain="code", source=CaseSource.PRACTICE, task=problem.spec, worked=hint
    )
    unrelated = await bank.write(
        domain="code", source=CaseSource.PRACTICE, task="Greet a person by name.", worked="hi"
    )
    stub.default = ModelScript()
    practice = practice_module.TestPractice(
        llm, timeout_s=30, root=tmp_path, system="sys", cases=bank
    )
    desire = Desire(agent_id=memory.agent_id, description="x", problem_source="HumanEval/0")
    trajectory = await practice.practice(desire, "code", "beginner", NOTHING_RECENT)
    assert trajectory is not None and trajectory.success
    assert trajectory.cases_shown == [case_id]
    solve = user_text(next(r for r in stub.chat_requests if r.step == "rsi.solve"))
    assert "The following is data (worked examples from your memory" in solve
    assert hint in solve and "Greet a person" not in solve

    await keep_case(bank, trajectory, "no-trajectory")
    by_id = {c.id: c for c, _ in await bank.store.active()}
    assert (by_id[case_id].uses, by_id[case_id].helpful, by_id[case_id].harmful) == (1, 1, 0)
    assert by_id[unrelated or ""].uses == 0


def test_a_generated_problem_is_read_from_its_code_blocks() -> None:
    reply = (
        "Here is a problem.\n```python\ndef double(x):\n    '''Twice x.'''\n    ...\n```\n"
        "And its tests:\n```python\ndef test_two():\n    assert double(2) == 4\n```\nEnjoy!"
    )
    problem = generated_problem(reply)
    assert problem is not None and problem.entry_point == "double"
    assert "from solution import" in problem.given_tests and "Twice x." in problem.spec
    assert generated_problem("```python\ndef double(x): ...\n```") is None  # no tests


async def test_a_principle_is_crystallized_from_cases_that_share_what_they_teach(
    memory: Memory,
    llm: LLMClient,
    stub: LLMStub,
    checks: GraphChecks,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    bank = CaseBank(CaseStore(memory), CaseSettings())
    error = "ValueError: span: positions are counted from 1, got start=0"
    shared = [
        await bank.write(
            domain="code", source=CaseSource.PRACTICE, task=task,
            failed_attempt=f"tally.span(text, 0, {n})", error=error,
            worked=f"tally.span(text, 1, {n})",
        )
        for n, task in (
            (2, "Take the initials of a name."), (3, "Cut a word's prefix."),
            (4, "Return the year of an ISO date."),
        )
    ]  # fmt: skip
    other = await bank.write(
        domain="code", source=CaseSource.PRACTICE, task="Post amounts to a ledger.",
        failed_attempt="tally.post(ledger, 1)", worked="tally.open_ledger(ledger)",
        error="RuntimeError: ledger 'x' is not open: call open_ledger(ledger) before post",
    )  # fmt: skip
    async with seeding(neo4j_endpoint, memory) as seed:
        await seed.nodes(
            "trajectories", *({"domain": "code", "problem": f"p{n}", "success": True}
                              for n in range(5))
        )  # fmt: skip
    principle = "Count tally.span positions from 1: pass start + 1 for a Python index."

    def answer(request: RecordedRequest) -> Reply:
        if request.step == "rsi_crystallize":
            return Reply.json({"principle": principle})
        return Reply.json({"answer": "YES"})

    stub.default = answer
    store = HeuristicStore(memory)
    crystallizer = Crystallizer(store, memory.events, llm, RSISettings(), cases=bank)
    report = await crystallizer.run()
    assert report.crystallized == 1
    asked = user_text(next(r for r in stub.chat_requests if r.step == "rsi_crystallize"))
    assert "data (verified cases)" in asked and asked.count(error) == 3
    assert "not open" not in asked
    [candidate] = await store.with_status(HeuristicStatus.CANDIDATE, "code")
    links = await checks.outgoing(candidate.id)
    assert {i for kind, label, i in links if label == "Case"} == set(shared) - {None}
    assert other not in {i for _, _, i in links}
    assert len(await bank.store.undistilled("code")) == 1  # the shared ones are distilled


async def test_a_trial_keeps_its_verified_passes_as_cases(
    memory: Memory, llm: LLMClient, stub: LLMStub, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    bank = CaseBank(CaseStore(memory), CaseSettings())
    async with seeding(neo4j_endpoint, memory) as seed:
        await seed.nodes(
            "heuristics", {"domain": "code", "content": "Check the edges.", "status": "candidate"}
        )
    stub.default = ModelScript()
    settings = RSISettings(trial_problems=2, practice_timeout_s=30)
    trials = HeuristicTrials(
        HeuristicStore(memory), memory.events, llm, settings, root=tmp_path, cases=bank
    )
    [tried] = await trials.run()
    assert tried.status == "rejected"  # solved alike with and without it: no win
    kept = [c for c, _ in await bank.store.active()]
    assert len(kept) == 2 and {c.source for c in kept} == {CaseSource.TRIAL}
    assert all("def " in c.worked and c.error == "" for c in kept)
