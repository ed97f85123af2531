"""Vectors written by whichever process writes memory: several writers, late commits, the
background writer of a long-lived process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from cognition.embeddings import EMBEDDED_MODEL, EmbeddedE5, Embeddings
from cognition.recall.background_vectors import BackgroundVectors
from cognition.recall.vectors import VectorJob
from graph.models import utc_now
from graph.server.finder import Neo4jEndpoint
from graph.settings import EmbeddingSettings
from graph.store.embeddings import EPOCH, EmbeddingStore, VectorRow
from graph.store.memory import Memory
from tests.support.recall_seed import Seeder, seeding

SETTINGS = EmbeddingSettings()


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


@pytest.fixture(scope="module")
def embeddings() -> Embeddings:
    return Embeddings(EmbeddedE5(threads=1))


async def _pending(memory: Memory) -> dict[str, int]:
    rows = await EmbeddingStore(memory).status(EMBEDDED_MODEL)
    return {r.label: r.pending for r in rows if r.pending}


async def test_two_writers_storing_the_same_vectors_count_them_once(
    memory: Memory, seed: Seeder, embeddings: Embeddings
) -> None:
    await seed.nodes("facts", *({"content": f"fact number {n}"} for n in range(3)))
    store = EmbeddingStore(memory)
    batch = await store.pending("Fact", EPOCH, 10)
    vectors = await embeddings.passages([p.text for p in batch])
    assert vectors is not None
    rows = [VectorRow(p.eid, v) for p, v in zip(batch, vectors, strict=True)]
    for _ in range(2):  # a hook's child and nous mcp, say, both found them pending
        await store.write("Fact", rows, model=EMBEDDED_MODEL, dimensions=384)
    space = await store.space()
    assert (space.mine, space.per_label["Fact"]) == (3, 3)
    assert await _pending(memory) == {}


async def test_a_writer_looking_back_embeds_what_another_committed_late(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    job = VectorJob(memory, embeddings, SETTINGS, tmp_path, lookback=timedelta(minutes=10))
    daemon_like = VectorJob(memory, embeddings, SETTINGS, tmp_path)
    await seed.nodes("facts", {"content": "the deploy key lives in the vault"})
    assert await daemon_like.run() == 1 and await job.run() == 0
    # Another process's fact, timed before the daemon-like cursor, committed only now.
    late = utc_now() - timedelta(minutes=2)
    await seed.nodes("facts", {"content": "the staging host was renamed", "at": late})
    assert await daemon_like.run() == 0  # past its cursor: left for the next start
    assert await job.run() == 1
    assert await _pending(memory) == {}


async def test_the_background_writer_embeds_after_a_nudge_and_settles(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    async def same_memory() -> Memory:
        return memory

    vectors = BackgroundVectors(embeddings, SETTINGS, tmp_path, same_memory)
    await seed.nodes("facts", *({"content": f"remembered fact {n}"} for n in range(5)))
    assert await _pending(memory) == {"Fact": 5}
    vectors.nudge()
    assert await vectors.settle(60.0)
    assert await _pending(memory) == {} and vectors.written == 5
    await seed.nodes("procedures", {"name": "release", "domain": "ops",
                                    "core_patterns": ["tag", "publish"]})  # fmt: skip
    vectors.nudge()
    assert await vectors.settle(60.0)
    assert await _pending(memory) == {} and vectors.written == 6
    await vectors.close()


async def test_the_background_writer_never_mixes_models(
    memory: Memory, seed: Seeder, embeddings: Embeddings, tmp_path: Path
) -> None:
    await EmbeddingStore(memory).reset_space("another-model", 384)

    async def same_memory() -> Memory:
        return memory

    vectors = BackgroundVectors(embeddings, SETTINGS, tmp_path, same_memory)
    await seed.nodes("facts", {"content": "a fact"})
    vectors.nudge()
    assert await vectors.settle(60.0)
    assert vectors.refused is not None and "another-model" in vectors.refused
    assert await _pending(memory) == {"Fact": 1}
