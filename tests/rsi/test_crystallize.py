"""Crystallization on a real Neo4j with the stub LLM: threshold, sample, check, de-duplication."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cognition.embeddings import Embeddings, EndpointEmbedder
from cognition.llm import LLMClient
from graph.models import HeuristicStatus, Trajectory
from graph.server.finder import Neo4jEndpoint
from graph.settings import RSISettings
from graph.store.heuristics import HeuristicStore
from graph.store.memory import Memory
from rsi.crystallize import Crystallizer, JudgementReply, stratified_sample, trajectory_text
from rsi.strategies import StrategyBook
from tests.support.graph_checks import open_checks
from tests.support.llm_stub import LLMStub, Reply
from tests.support.recall_seed import Seeder, seeding

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
PRINCIPLE = "When a test fails, read the assertion message before changing any code."
REPEAT = "When a test fails, read the assertion message first, before changing any code."
OTHER = "Write the edge cases of the specification as tests before writing the solution."


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


async def _trajectories(seed: Seeder, n: int, *, domain: str = "code", start: int = 0) -> list[str]:
    rows: list[dict[str, Any]] = [
        {
            "at": T0 + timedelta(minutes=start + i),
            "domain": domain,
            "problem": f"problem {start + i}: " + "x" * 900,
            "approach": "tests first",
            "solution": "def f():\n    return 1\n",
            "success": True,
            "partial_score": 1.0,
        }
        for i in range(n)
    ]
    return await seed.nodes("trajectories", *rows)


def _crystallizer(memory: Memory, llm: LLMClient | None, book: StrategyBook) -> Crystallizer:
    return Crystallizer(
        HeuristicStore(memory),
        memory.events,
        llm,
        RSISettings(),
        system_prompt=book.text,
        on_change=book.refresh,
        embeddings=Embeddings(EndpointEmbedder(llm, "stub-embedder")) if llm is not None else None,
    )


def _book(memory: Memory) -> StrategyBook:
    return StrategyBook(HeuristicStore(memory), 2000)


async def test_a_domain_at_the_threshold_gets_one_heuristic_from_its_sample(
    memory: Memory, seed: Seeder, llm: LLMClient, stub: LLMStub, neo4j_endpoint: Neo4jEndpoint
) -> None:
    ids = await _trajectories(seed, 4)
    await seed.nodes("trajectories", {"domain": "code", "problem": "failed", "success": False})
    [cycle] = await seed.nodes("rsi_cycles", {"processed": 1})
    book = _book(memory)
    crystallizer = _crystallizer(memory, llm, book)

    assert (await crystallizer.run(cycle_id=cycle)).results == []  # 4 of 5: below the threshold
    assert stub.chat_requests == []

    ids += await _trajectories(seed, 8, start=4)  # 12 now: the sample takes 10
    stub.script(Reply.json({"principle": PRINCIPLE}), Reply.json({"answer": "YES"}))
    report = await crystallizer.run(cycle_id=cycle)

    [result] = report.results
    assert (result.domain, result.outcome, result.principle) == ("code", "crystallized", PRINCIPLE)
    expected = ids[:4] + ids[5:8] + ids[-3:]  # 4 oldest, 3 middle (n // 2 - 1 = 5), 3 newest
    assert sorted(result.trajectory_ids) == sorted(expected)
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        [row] = await checks.memory.read("checks/heuristics")
        linked = await checks.memory.read("checks/distilled_from", id=result.heuristic_id)
    heuristic = row["heuristic"]
    # A candidate: no prompt carries it before its trial.
    assert (heuristic["content"], heuristic["status"], heuristic["domain"]) == (
        PRINCIPLE, "candidate", "code"
    )  # fmt: skip
    assert (heuristic["usage_count"], heuristic["helpful"], heuristic["harmful"]) == (0, 0, 0)
    assert sorted(r["id"] for r in linked) == sorted(expected)
    assert row["produced_by"] == [cycle]
    events = await memory.events.events("rsi_heuristic_crystallized")
    assert [e.data["heuristic_id"] for e in events] == [result.heuristic_id]

    principle_request, check_request = stub.chat_requests
    assert principle_request.body is not None and principle_request.body["temperature"] == 0.5
    assert principle_request.step == "rsi_crystallize"
    assert (check_request.step, (check_request.body or {}).get("temperature")) == (
        "rsi_actionable", 0.0
    )  # fmt: skip
    # Each trajectory reaches the model cut to 500 characters, fenced as data.
    user = principle_request.messages[1]["content"]
    assert "x" * 600 not in user and "The following is data" in user
    # The request carries the system prompt first; the candidate is not in it, nor after.
    assert principle_request.messages[0]["role"] == "system"
    assert "# Constitution" in principle_request.messages[0]["content"]
    assert PRINCIPLE not in (await book.prompt()).text
    assert (await book.prompt()).strategy_ids == ()

    # Two undistilled trajectories are left: nothing more to crystallize.
    assert (await crystallizer.run()).results == []


async def test_a_near_duplicate_reinforces_instead_of_adding(
    memory: Memory, seed: Seeder, llm: LLMClient, stub: LLMStub, neo4j_endpoint: Neo4jEndpoint
) -> None:
    [existing] = await seed.nodes(
        "heuristics", {"domain": "code", "content": PRINCIPLE, "status": "active"}
    )
    new = await _trajectories(seed, 5)
    stub.script(Reply.json({"principle": REPEAT}), Reply.json({"answer": "yes"}))

    [result] = (await _crystallizer(memory, llm, _book(memory)).run()).results

    assert (result.outcome, result.heuristic_id) == ("reinforced", existing)
    [embedding] = stub.embedding_requests  # similarity by embeddings, not by asking
    assert embedding.model == "stub-embedder"
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        rows = await checks.memory.read("checks/heuristics")
        linked = await checks.memory.read("checks/distilled_from", id=existing)
    assert [r["heuristic"]["confirmations"] for r in rows] == [1]
    assert sorted(r["id"] for r in linked) == sorted(new)


async def test_a_different_principle_is_added_beside_the_existing_one(
    memory: Memory, seed: Seeder, llm: LLMClient, stub: LLMStub
) -> None:
    await seed.nodes("heuristics", {"domain": "code", "content": PRINCIPLE, "status": "active"})
    await _trajectories(seed, 5)
    stub.script(Reply.json({"principle": OTHER}), Reply.json({"answer": "YES"}))

    [result] = (await _crystallizer(memory, llm, _book(memory)).run()).results

    assert result.outcome == "crystallized"
    store = HeuristicStore(memory)
    assert [h.content for h in await store.active("code")] == [PRINCIPLE]
    candidates = await store.with_status(HeuristicStatus.CANDIDATE, "code")
    assert [h.content for h in candidates] == [OTHER]


async def test_a_principle_its_trial_rejected_is_refused_when_distilled_again(
    memory: Memory, seed: Seeder, llm: LLMClient, stub: LLMStub
) -> None:
    await seed.nodes("heuristics", {"domain": "code", "content": OTHER, "status": "rejected"})
    await _trajectories(seed, 5)
    stub.script(Reply.json({"principle": OTHER.upper()}), Reply.json({"answer": "YES"}))

    [result] = (await _crystallizer(memory, llm, _book(memory)).run()).results

    assert (result.outcome, result.reason) == ("refused", "repeats a heuristic its trial rejected")
    assert await HeuristicStore(memory).with_status(HeuristicStatus.CANDIDATE) == []


async def test_without_embeddings_the_model_judges_duplicates(
    memory: Memory, seed: Seeder, llm: LLMClient, stub: LLMStub
) -> None:
    stub.embeddings = False  # /v1/embeddings answers 404
    await seed.nodes("heuristics", {"domain": "code", "content": OTHER, "status": "active"})
    [existing] = await seed.nodes(
        "heuristics", {"domain": "code", "content": PRINCIPLE, "status": "active"}
    )
    await _trajectories(seed, 5)
    stub.script(
        Reply.json({"principle": "Read the failing assertion before editing code."}),
        Reply.json({"answer": "YES"}),
        Reply.json({"answer": "YES", "same_as": 2}),
    )

    [result] = (await _crystallizer(memory, llm, _book(memory)).run()).results

    assert (result.outcome, result.heuristic_id) == ("reinforced", existing)
    assert [r.step for r in stub.chat_requests] == [
        "rsi_crystallize",
        "rsi_actionable",
        "rsi_dedup",
    ]
    assert len(stub.embedding_requests) == 1  # asked once, then remembered as not served
    dedup = stub.chat_requests[2].messages[1]["content"]
    assert "1. " + OTHER in dedup and "2. " + PRINCIPLE in dedup


async def test_a_vague_principle_is_refused_by_the_actionable_check(
    memory: Memory, seed: Seeder, llm: LLMClient, stub: LLMStub
) -> None:
    await _trajectories(seed, 5)
    stub.script(
        Reply.json({"principle": "Think carefully about your code."}), Reply.json({"answer": "NO"})
    )

    [result] = (await _crystallizer(memory, llm, _book(memory)).run()).results

    assert (result.outcome, result.reason) == ("refused", "not actionable")
    assert await HeuristicStore(memory).active() == []
    # The trajectories stay undistilled: later practice may yield a better principle.
    assert len(await HeuristicStore(memory).undistilled_trajectories("code")) == 5
    [event] = await memory.events.events("rsi_heuristic_refused")
    assert event.data["principle"] == "Think carefully about your code."


@pytest.mark.parametrize("echoed", ["<the instruction>", " <the instruction>. ", "Test first."])
async def test_an_echoed_placeholder_or_a_fragment_is_refused_without_asking(
    memory: Memory, seed: Seeder, llm: LLMClient, stub: LLMStub, echoed: str
) -> None:
    # SmolLM2-135M answered the principle request with the reply shape's placeholder, and
    # then judged it actionable: the check is not left to the model.
    await _trajectories(seed, 5)
    stub.script(Reply.json({"principle": echoed}), Reply.json({"answer": "YES"}))

    [result] = (await _crystallizer(memory, llm, _book(memory)).run()).results

    assert result.outcome == "refused" and result.reason.startswith("not a principle")
    assert [r.step for r in stub.chat_requests] == ["rsi_crystallize"]
    assert await HeuristicStore(memory).active() == []


async def test_without_a_model_nothing_is_crystallized_and_it_says_so(
    memory: Memory, seed: Seeder
) -> None:
    await _trajectories(seed, 6)

    [result] = (await _crystallizer(memory, None, _book(memory)).run()).results

    assert (result.outcome, result.reason) == ("skipped", "no model: crystallization needs an LLM")
    assert await HeuristicStore(memory).active() == []
    [event] = await memory.events.events("rsi_crystallize_skipped")
    assert event.data["domain"] == "code"


def test_the_sample_is_four_oldest_three_middle_three_newest() -> None:
    made = [
        Trajectory(agent_id="a", at=T0 + timedelta(minutes=i), domain="code", problem=str(i))
        for i in range(20)
    ]
    sample = [int(t.problem) for t in stratified_sample(list(reversed(made)))]
    assert sample == [0, 1, 2, 3, 9, 10, 11, 17, 18, 19]
    assert [int(t.problem) for t in stratified_sample(made[:7])] == list(range(7))
    assert len(trajectory_text(made[0].model_copy(update={"problem": "y" * 2000}))) == 500


@pytest.mark.parametrize(
    ("said", "read"),
    [("YES", "YES"), ("no.", "NO"), ("No, it is vague", "NO"), (True, "YES"), (" yes ", "YES")],
)
def test_a_judgement_reads_the_answer_a_model_gives(said: object, read: str) -> None:
    assert JudgementReply.model_validate({"answer": said}).answer == read


def test_a_judgement_that_is_neither_yes_nor_no_is_unusable() -> None:
    with pytest.raises(ValueError):
        JudgementReply.model_validate({"answer": "maybe"})
