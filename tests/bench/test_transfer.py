"""The transfer harness, proven with the stub: arms carry their strategies, figures add up."""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import AsyncIterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from bench.model_wait import ModelStalled
from bench.stats import binomial_two_sided, mcnemar_exact
from bench.transfer import held_out_tasks, main, run_transfer
from bench.transfer_prompts import passes
from bench.transfer_report import ARMS, format_result
from bench.transfer_strategies import split_strategies
from cognition.cases import CaseBank
from cognition.llm import LLMClient
from graph.models import CaseSource
from graph.server.finder import Neo4jEndpoint
from graph.settings import CaseSettings, LLMSettings, Settings
from graph.store.cases import CaseStore
from graph.store.heuristics import HeuristicStore
from graph.store.memory import Memory
from rsi.problems import HELD_OUT_IDS, Problem, human_eval
from tests.rsi.conftest import ModelScript
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply
from tests.support.recall_seed import Seeder, seeding

LEARNED = "Check empty and single-element inputs before the general case."
OTHER = "Ask for the premises before drawing a conclusion."
CANONICAL = {p.entry_point: p.canonical_solution for p in human_eval()}
WRONG = "def {name}(*args, **kwargs):\n    return None\n"
# The control arm is right on the first three held-out problems only.
CONTROL_RIGHT = {t.entry_point for t in held_out_tasks(3)}


def answer(request: RecordedRequest) -> Reply:
    """As a model writes code: prose and a fenced block. Right in the plain form (no system
    prompt), with the learned strategy, or when a worked example shows this very solution."""
    first, user = request.messages[0], str(request.messages[-1]["content"])
    system = str(first["content"]) if first["role"] == "system" else None
    asked = re.search(r"function `(\w+)`", user) or re.findall(r"def (\w+)\(", user)[-1]
    name = asked.group(1) if isinstance(asked, re.Match) else asked
    example = "worked examples" in user and CANONICAL[name].strip() in user
    right = system is None or LEARNED in system or example
    code = CANONICAL[name] if right else WRONG.format(name=name)
    return Reply.text(f"Sure, here is the function.\n```python\n{code}```\nHope it helps.")


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


def test_the_held_out_split_is_twenty_humaneval_problems() -> None:
    tasks = held_out_tasks()
    assert len(tasks) == 20 and {t.source for t in tasks} == HELD_OUT_IDS
    assert tasks[0].source == "HumanEval/4" and tasks[-1].source == "HumanEval/156"


def test_exact_mcnemar() -> None:
    assert binomial_two_sided(0, 0) == 1.0
    assert binomial_two_sided(6, 6) == pytest.approx(2 / 64)
    assert binomial_two_sided(1, 10) == pytest.approx(2 * 11 / 1024)
    assert binomial_two_sided(5, 10) == 1.0
    test = mcnemar_exact([True, True, False, True], [False, True, True, False])
    assert (test.only_a, test.only_b, test.p_value) == (2, 1, 1.0)
    with pytest.raises(ValueError):
        mcnemar_exact([True], [])


async def test_answers_are_checked_in_a_child_with_a_timeout() -> None:
    task = held_out_tasks(1)[0]
    assert await passes(task, CANONICAL[task.entry_point])
    assert not await passes(task, WRONG.format(name=task.entry_point))
    endless = f"def {task.entry_point}(*a):\n    while True:\n        pass\n"
    started = time.monotonic()
    assert not await passes(task, endless, timeout_s=1.0)
    assert time.monotonic() - started < 10


async def test_five_arms_on_the_stub_with_strategies_and_cases_from_the_graph(
    memory: Memory, seed: Seeder
) -> None:
    await seed.nodes(
        "heuristics",
        {"domain": "code", "content": LEARNED, "status": "active"},
        {"domain": "logic", "content": OTHER, "status": "active"},
    )
    tasks = held_out_tasks(4)
    bank = CaseBank(CaseStore(memory), CaseSettings(per_prompt=1))
    await bank.write(
        domain="code", source=CaseSource.PRACTICE, task=tasks[0].spec,
        worked=CANONICAL[tasks[0].entry_point],
    )  # fmt: skip
    await bank.write(
        domain="code", source=CaseSource.PRACTICE, task="Greet a person by name.", worked="x"
    )
    strategies = split_strategies(await HeuristicStore(memory).active(), "code", 3)
    with LLMStub(default=answer, model="stub-coder") as stub:
        settings = Settings(llm=LLMSettings(base_url=stub.base_url))
        async with LLMClient(settings.llm) as llm:
            result = await run_transfer(llm, settings, strategies, tasks, bank)
        requests = stub.chat_requests
    # Each problem in each arm, but a request an earlier arm already sent (temperature 0) is
    # not sent again: `cases` where no case is close enough sends `none`'s very request.
    assert result.reused["cases"] == 3
    assert len(requests) + sum(result.reused.values()) == 20
    assert {r.body["temperature"] for r in requests if r.body} == {0.0}
    assert not any(r.response_format for r in requests)  # code is never asked for as JSON
    plain = [r for r in requests if r.step == "transfer_plain"]
    assert all(len(r.messages) == 1 and "data (" not in str(r.messages[0]) for r in plain)

    assert result.model == "stub-coder" and result.case_bank == 2
    assert {k: v for k, v in result.pass_at_1.items() if k != "random cases"} == {
        "plain": 1.0, "none": 0.0, "cases": 0.25, "principles": 1.0
    }  # fmt: skip
    assert result.pass_at_1["random cases"] <= 0.25
    assert result.cases_shown["cases"] >= 1 and result.cases_shown["random cases"] == 4
    assert result.mcnemar["principles vs none"] == {
        "principles only": 4, "none only": 0, "p_value": pytest.approx(2 / 16)
    }  # fmt: skip
    assert result.mcnemar["cases vs none"]["cases only"] == 1
    assert "none / plain: 0.00 (target >= 0.95)" in format_result(result)


def test_the_command_reads_a_strategies_file_and_any_endpoint(tmp_path: Path) -> None:
    document = {
        "version": 7,
        "heuristics": [
            {"id": "h1", "domain": "code", "content": LEARNED, "added_at": "2026-01-01T00:00:00"}
        ],
    }
    strategies = tmp_path / "strategies.json"
    strategies.write_text(json.dumps(document))
    empty = Path(__file__).resolve().parents[1] / "support" / "empty.yaml"
    out = io.StringIO()
    with LLMStub(default=answer, model="stub-coder") as stub, redirect_stdout(out):
        code = main(
            ["--config", str(empty), "--strategies", str(strategies), "--base-url",
             stub.base_url, "--limit", "2", "--json"]
        )  # fmt: skip
    assert code == 0
    result = json.loads(out.getvalue())
    assert (result["strategy_version"], result["control_kind"]) == ("v7", "shuffled words")
    assert result["pass_at_1"]["principles"] == 1.0 and result["pass_at_1"]["none"] == 0.0
    assert result["pass_at_1"]["plain"] == 1.0
    assert result["problems"] == ["HumanEval/4", "HumanEval/12"]


def test_arms_chosen_run_alone_with_none_as_the_reference(tmp_path: Path) -> None:
    empty = Path(__file__).resolve().parents[1] / "support" / "empty.yaml"
    strategies = tmp_path / "strategies.json"
    strategies.write_text(json.dumps({"version": 1, "heuristics": []}))
    out = io.StringIO()
    with LLMStub(default=answer, model="stub-coder") as stub, redirect_stdout(out):
        code = main(
            ["--config", str(empty), "--strategies", str(strategies), "--base-url",
             stub.base_url, "--limit", "2", "--arms", "plain", "--json"]
        )  # fmt: skip
        steps = {r.step for r in stub.chat_requests}
    assert code == 0 and steps == {"transfer_plain", "transfer_none"}
    result = json.loads(out.getvalue())
    assert set(result["pass_at_1"]) == {"plain", "none"}
    assert set(result["mcnemar"]) == {"plain vs none"}
    with pytest.raises(SystemExit) as refused, redirect_stderr(io.StringIO()) as err:
        main(["--arms", "plain,cases,principals"])
    assert refused.value.code == 2 and "unknown arm(s) principals" in err.getvalue()


def test_a_task_without_its_signature_gets_the_prompt_prepended() -> None:
    from bench.transfer_prompts import solution_module

    task = Problem("HumanEval/x", "def f(a):\n    '''doc'''\n", "f")
    assert solution_module(task, "    return a\n").count("def f(a):") == 1
    fenced = solution_module(task, "Here:\n```python\ndef f(a):\n    return a\n```\nDone.")
    assert fenced == "def f(a):\n    return a\n"
    helper = "from typing import List\n\n\ndef h(a):\n    return a\n\n\ndef g(a: List[int]):\n"
    typed = Problem("HumanEval/y", helper, "g", check="def check(candidate):\n    pass\n")
    module = solution_module(typed, "```python\ndef g(a: List[int]):\n    return h(a)\n```")
    assert module.startswith(helper.rstrip()) and module.endswith("    return h(a)\n")


async def test_a_request_the_endpoint_failed_is_asked_again_not_counted_failed() -> None:
    from bench.transfer_strategies import StrategySet

    tasks = held_out_tasks(2)
    with LLMStub(default=Reply.json({"answer": "no code here"})) as stub:
        stub.script(Reply.error(500), Reply.error(500))
        llm_settings = LLMSettings(base_url=stub.base_url, health_backoff_s=[0.1])
        settings = Settings(llm=llm_settings)
        async with LLMClient(settings.llm) as llm:
            result = await run_transfer(
                llm, settings, StrategySet([], [], "none", "v0"), tasks, patience_s=30
            )
    # The two failures were the first request's, asked again: each task has its answer.
    assert result.errors == {"plain": 2}
    assert result.unusable == {"plain": 2, "none": 2}
    assert len(stub.chat_requests) == 6
    assert "2 requests the endpoint failed, asked again" in format_result(result)


async def test_an_endpoint_that_keeps_failing_stops_the_bench() -> None:
    from bench.transfer_strategies import StrategySet

    tasks = held_out_tasks(2)
    with LLMStub(default=Reply.error(500)) as stub:
        llm_settings = LLMSettings(base_url=stub.base_url, health_backoff_s=[0.1])
        settings = Settings(llm=llm_settings)
        async with LLMClient(settings.llm) as llm:
            with pytest.raises(ModelStalled, match="did not answer for 3 s"):
                await run_transfer(
                    llm, settings, StrategySet([], [], "none", "v0"), tasks, patience_s=3
                )
    assert len(stub.chat_requests) >= 2, "the failed request was asked again before stopping"


async def test_a_reply_without_code_is_counted_and_reported() -> None:
    from bench.transfer_strategies import StrategySet

    tasks = held_out_tasks(2)
    with LLMStub(default=Reply.json({"answer": "no code here"})) as stub:
        settings = Settings(llm=LLMSettings(base_url=stub.base_url))
        async with LLMClient(settings.llm) as llm:
            result = await run_transfer(llm, settings, StrategySet([], [], "none", "v0"), tasks)
    # With nothing learned and no cases, every arm after `none` sends `none`'s very request:
    # at temperature 0 it is not sent again, and the report says so.
    assert result.unusable == {"plain": 2, "none": 2} and result.errors == {}
    assert result.reused == {"cases": 2, "random cases": 2, "principles": 2}
    assert len(stub.chat_requests) == 4
    assert result.pass_at_1 == dict.fromkeys(ARMS, 0.0)
    text = format_result(result)
    assert "2 replies held no usable code" in text
    assert "2 the same request as an earlier arm's" in text


@pytest.mark.usefixtures("neo4j_in_environ")
def test_practice_cycles_learn_trial_and_measure_through_the_real_pipeline() -> None:
    practice = ModelScript(desires=["be better"])  # rejected: every cycle bootstraps

    def model(request: RecordedRequest) -> Reply:
        if request.step == "rsi.trial" and LEARNED not in str(request.messages[0]["content"]):
            return Reply.text("```python\ndef nothing():\n    pass\n```")  # it wins its trial
        if request.step == "rsi_crystallize":
            return Reply.json({"principle": LEARNED})
        if request.step == "rsi_actionable":
            return Reply.json({"answer": "YES"})
        if (request.step or "").startswith("rsi"):
            return practice(request)
        return answer(request)

    empty = Path(__file__).resolve().parents[1] / "support" / "empty.yaml"
    out = io.StringIO()
    with LLMStub(default=model, model="stub-coder") as stub, redirect_stdout(out):
        code = main(
            ["--config", str(empty), "--base-url", stub.base_url, "--practice-cycles", "2",
             "--crystallize-after", "2", "--trial-problems", "2", "--limit", "2", "--json"]
        )  # fmt: skip
        steps = [r.step for r in stub.chat_requests]
    assert code == 0
    result = json.loads(out.getvalue())
    cycles = result["practice"]["cycles"]
    assert [(c["practiced"], c["practice_origin"], c["domain"]) for c in cycles] == [
        (1, "bootstrap", "code"), (1, "bootstrap", "code")
    ]  # fmt: skip
    assert [c["crystallized"] for c in cycles] == [0, 1] and cycles[1]["activated"] == 1
    [learned] = result["practice"]["heuristics"]
    assert (learned["content"], learned["status"]) == (LEARNED, "active")
    [trial] = learned["trials"]
    assert trial["verdict"] == "kept" and len(trial["problems"]) == 2
    assert not set(trial["problems"]) & HELD_OUT_IDS
    assert steps.count("rsi.trial") == 4
    assert result["pass_at_1"] == {
        "plain": 1.0, "none": 0.0, "cases": 0.0, "random cases": 0.0, "principles": 1.0
    }  # fmt: skip
    # Two practiced problems, and the trial's passes (a problem met twice is one case).
    assert 2 <= result["case_bank"] <= 4
    assert result["client_errors"] == 0
