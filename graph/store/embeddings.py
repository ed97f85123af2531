"""Vectors in the graph: the access layer for ``cypher/embeddings/`` (the vector job, the command).

Labels chosen at run time come from :data:`EMBEDDED_LABELS` only; each query
file holds one branch per label, and the label travels as a parameter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from graph.settings_source import EMBEDDING_DIMENSIONS
from graph.store.agent_graph import AgentGraph
from graph.store.rows.embeddings import LabelCoverage, StoredVector

# What gets a vector: the text recall shows (cypher/schema/010_embeddings.cypher).
EMBEDDED_LABELS = (
    "Decision",
    "Lesson",
    "Fact",
    "Procedure",
    "Episode",
    "Heuristic",
    "Censor",
    "Turn",
    "Commit",
    "Case",
    "File",
)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
INDEX_DIMENSIONS = EMBEDDING_DIMENSIONS  # the vector index's (cypher/schema/011_recall_vectors)


_COVERAGE = ("nodes", "with_text", "vectors", "current", "pending")


@dataclass(frozen=True)
class Pending:
    """A node that needs a vector: its element id, the text to embed, its cursor time."""

    eid: str
    id: str
    text: str
    cursor: datetime
    path: str | None = None
    content_hash: str | None = None


@dataclass(frozen=True)
class VectorRow:
    """A vector to store (None: nothing to embed, e.g. a binary file; its hash is recorded)."""

    eid: str
    vector: list[float] | None
    hash: str | None = None
    excerpt: str | None = None


@dataclass(frozen=True)
class Space:
    """The agent's recorded embedding model and dimension; its vectors and every agent's."""

    model: str | None
    dimensions: int | None
    mine: int = 0
    vectors: int = 0
    per_label: Mapping[str, int] = field(default_factory=dict)


class EmbeddingStore:
    """One agent's vectors: what needs one, writing them, coverage, clearing."""

    page = 5000  # vectors one vectors_since read returns at most (more than one write's batch)

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def pending(self, label: str, since: datetime, limit: int) -> list[Pending]:
        """Up to ``limit`` nodes of ``label`` that need a vector, oldest first from ``since``."""
        _check(label)
        rows = await self.graph.read("embeddings/pending", label=label, since=since, limit=limit)
        return [
            Pending(
                eid=r["eid"],
                id=str(r["id"] or ""),
                text=str(r["text"] or ""),
                cursor=utc(r["cursor"]),
                path=r["path"],
                content_hash=r["content_hash"],
            )
            for r in rows
        ]

    async def write(
        self, label: str, rows: Sequence[VectorRow], *, model: str, dimensions: int
    ) -> int:
        """Store a batch of vectors of one label; return how many were stored."""
        _check(label)
        if not rows:
            return 0
        params = [
            {"eid": r.eid, "vector": r.vector, "hash": r.hash, "excerpt": r.excerpt} for r in rows
        ]
        result = await self.graph.write(
            "embeddings/write", label=label, model=model, dimensions=dimensions, rows=params
        )
        return int(result[0]["written"]) if result else 0

    async def space(self) -> Space:
        """The agent's embedding space, and how many vectors every agent holds together."""
        [row] = await self.graph.read("embeddings/space")
        mine = row["mine"] or {}
        counts = {label: int(mine.get(f"count_{label}", 0) or 0) for label in EMBEDDED_LABELS}
        return Space(
            row["model"],
            row["dimensions"],
            mine=int(mine.get("vectors", 0) or 0),
            vectors=int(row["vectors"] or 0),
            per_label=counts,
        )

    async def vectors_since(self, model: str, since: datetime) -> list[StoredVector]:
        """Up to ``page`` of the agent's vectors of ``model`` embedded at or after ``since``."""
        rows = await self.graph.read(
            "embeddings/vectors_since", model=model, since=since, limit=self.page
        )
        return [
            StoredVector(
                str(r["eid"]), r["label"], r["path"], list(r["embedding"]), r["embedded_at"]
            )
            for r in rows
        ]

    async def status(self, model: str) -> list[LabelCoverage]:
        """Coverage per label: nodes, nodes with text, vectors, vectors of ``model``, pending."""
        rows = await self.graph.read("embeddings/status", model=model)
        return [
            LabelCoverage(
                str(r["label"]),
                *(int(r[k] or 0) for k in _COVERAGE),  # each column a count
            )
            for r in rows
        ]

    async def clear(self, *, chunk: int = 5000) -> int:
        """Remove every vector of the agent (in chunks); return how many nodes lost one."""
        total = 0
        while True:
            [row] = await self.graph.write("embeddings/clear", limit=chunk)
            total += int(row["cleared"])
            if int(row["cleared"]) < chunk:
                return total

    async def reset_space(self, model: str, dimensions: int) -> None:
        """Record ``model`` and ``dimensions`` as the agent's, with no vectors counted."""
        await self.graph.write("embeddings/reset_space", model=model, dimensions=dimensions)


def utc(moment: datetime) -> datetime:
    """``moment`` with the standard UTC offset: a time read back carries the driver's "UTC" zone
    id, and Neo4j's index seek then misses the values stored with an offset (measured: a cursor
    read back found none of the nodes at that very time)."""
    return moment.astimezone(UTC)


def _check(label: str) -> None:
    if label not in EMBEDDED_LABELS:
        raise ValueError(f"not a label with vectors: {label!r} (one of {EMBEDDED_LABELS})")
