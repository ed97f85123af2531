"""Vectors for the recall benchmark: synthetic ones for big memories, and hybrid recall timed.

Embedding a million nodes with the real model would take hours on two
cores, so ``bench.recall`` gives every node that needs a vector (found by the
product's own ``embeddings/pending``, written by its ``embeddings/write``) a
synthetic one: a unit vector near one of 256 random centres, so the HNSW
index sees clustered data as with real text. Query vectors are drawn the same
way. What the real model costs per query is measured apart (on its own line).
"""

from __future__ import annotations

import random
import time

import numpy as np

from bench.common import percentile
from bench.recall_data import History
from cognition.embeddings import EmbeddedE5, Embeddings, Vector
from cognition.recall.hybrid import HybridRecall, fuse
from graph.models.paths import path_pattern
from graph.settings import EmbeddingSettings
from graph.store.embeddings import EMBEDDED_LABELS, EPOCH, VectorRow
from graph.store.lucene import agent_query, lucene_query
from graph.store.memory import Memory

MODEL = "bench/synthetic-384"
DIMENSIONS = 384
CENTRES = 256


class SyntheticVectors:
    """A provider of clustered unit vectors (the benchmark's stand-in for a model)."""

    model = MODEL
    dimensions = DIMENSIONS

    def __init__(self, seed: int = 11) -> None:
        self.rng = np.random.default_rng(seed)
        centres = self.rng.standard_normal((CENTRES, DIMENSIONS)).astype(np.float32)
        self.centres = centres / np.linalg.norm(centres, axis=1, keepdims=True)

    def draw(self, count: int) -> np.ndarray:
        """``count`` unit vectors, each near a random centre."""
        picks = self.rng.integers(0, CENTRES, count)
        noise = self.rng.standard_normal((count, DIMENSIONS)).astype(np.float32) * 0.06
        vectors: np.ndarray = self.centres[picks] + noise
        normalised: np.ndarray = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        return normalised

    async def embed(self, texts: list[str], *, query: bool) -> list[Vector] | None:
        """Vectors for ``texts`` (their words are not looked at)."""
        return [[float(x) for x in row] for row in self.draw(len(texts))]


async def fill_vectors(memory: Memory, provider: SyntheticVectors, batch: int = 2000) -> int:
    """Give every node of the agent that needs a vector a synthetic one; return how many."""
    store = memory.embeddings
    written = 0
    for label in EMBEDDED_LABELS:
        cursor = EPOCH
        while pending := await store.pending(label, cursor, batch):
            vectors = provider.draw(len(pending))
            rows = [
                VectorRow(p.eid, v.tolist(), p.content_hash)
                for p, v in zip(pending, vectors, strict=True)
            ]
            written += await store.write(label, rows, model=MODEL, dimensions=DIMENSIONS)
            cursor = max(p.cursor for p in pending)
    return written


async def measure_hybrid(
    memory: Memory, history: History, provider: SyntheticVectors, runs: int, warmup: int
) -> list[float]:
    """Milliseconds per hybrid recall (words, vectors, graph, fused) with a ready query vector."""
    hybrid = HybridRecall(memory, Embeddings(provider), EmbeddingSettings())
    rng = random.Random(5)
    timings: list[float] = []
    for n in range(warmup + runs):
        path, _ = history.path(rng.randrange(history.files))
        words = " ".join(rng.choice(history.words) for _ in range(4))
        vector = provider.draw(1)[0].tolist()
        start = time.perf_counter()
        found = await hybrid.search(words, path=path, vector=vector, limit=10)
        fuse({"words": found.words, "meaning": found.meaning, "graph": found.graph})
        if n >= warmup:
            timings.append((time.perf_counter() - start) * 1000)
    return timings


async def measure_parts(
    memory: Memory, history: History, provider: SyntheticVectors, runs: int
) -> dict[str, float]:
    """p50 milliseconds of each method of hybrid recall alone (words, meaning, graph)."""
    hybrid = HybridRecall(memory, Embeddings(provider), EmbeddingSettings())
    rng = random.Random(6)
    parts = {
        "words": {"meaning_limit": 0, "graph_limit": 0},
        "meaning": {"words_limit": 0, "graph_limit": 0},
        "graph": {"words_limit": 0, "meaning_limit": 0},
    }
    out: dict[str, float] = {}
    for name, off in parts.items():
        timings = []
        for _ in range(runs):
            path, _ = history.path(rng.randrange(history.files))
            words = " ".join(rng.choice(history.words) for _ in range(4))
            fields = {
                "query": agent_query(lucene_query([words]), memory.agent_id),
                "vector": provider.draw(1)[0].tolist(),
                "path": path,
                "path_pattern": path_pattern(path),
                "words_limit": 10,
                "meaning_limit": 10,
                "graph_limit": 10,
                **off,
            }
            start = time.perf_counter()
            await hybrid.store.hybrid(await hybrid.request(**fields))
            timings.append((time.perf_counter() - start) * 1000)
        out[name] = percentile(timings, 50)
    return out


async def query_embedding_ms(count: int = 40) -> tuple[float, float]:
    """p50 and p95 milliseconds of the default model embedding one new question."""
    embeddings = Embeddings(EmbeddedE5(threads=1), cache_size=0)
    await embeddings.query("warm up the engine")
    timings = []
    for n in range(count):
        start = time.perf_counter()
        await embeddings.query(f"why did release number {n} of the package break last night?")
        timings.append((time.perf_counter() - start) * 1000)
    return percentile(timings, 50), percentile(timings, 95)
