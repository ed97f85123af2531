"""``nous embeddings``: coverage, backfill, a model change refused, reembed."""

from __future__ import annotations

import json

from cognition.embeddings import EMBEDDED_MODEL
from graph.store.embeddings import EmbeddingStore
from graph.store.memory import Memory
from tests.scheduler.cli.conftest import Nous
from tests.support.recall_seed import Seeder


def _coverage(out: str, label: str) -> dict[str, int]:
    [row] = [r for r in json.loads(out)["labels"] if r["label"] == label]
    return {k: row[k] for k in ("nodes", "with_text", "vectors", "current")}


async def test_backfill_fills_what_status_shows_missing(
    nous: Nous, memory: Memory, seeder: Seeder
) -> None:
    await seeder.nodes("facts", {"content": "the disk was full"}, {"content": "lenses, ground"})
    before = await nous("embeddings", "status", "--json")
    assert before.code == 0
    assert _coverage(before.out, "Fact") == {"nodes": 2, "with_text": 2, "vectors": 0, "current": 0}

    filled = await nous("embeddings", "backfill", "--json")
    assert filled.code == 0, filled.err
    assert json.loads(filled.out)["written"] == 2
    after = await nous("embeddings", "--json")
    assert _coverage(after.out, "Fact") == {"nodes": 2, "with_text": 2, "vectors": 2, "current": 2}
    assert json.loads(after.out)["memory_model"] == EMBEDDED_MODEL


async def test_another_models_vectors_are_refused_until_reembed(
    nous: Nous, memory: Memory, seeder: Seeder
) -> None:
    await seeder.nodes("facts", {"content": "the disk was full"})
    await EmbeddingStore(memory).reset_space("old-embedder-v1", 384)
    refused = await nous("embeddings", "backfill")
    assert refused.code == 2
    assert "old-embedder-v1" in refused.err and EMBEDDED_MODEL in refused.err

    redone = await nous("embeddings", "reembed")
    assert redone.code == 0, redone.err
    assert "1 vectors written" in redone.out
    assert (await EmbeddingStore(memory).space()).model == EMBEDDED_MODEL
