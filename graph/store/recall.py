"""Reading what recall needs from memory: the access layer for ``cypher/recall/``.

One method per query; each returns graph models (or small typed records for
what has no model), never prompt text: turning them into a decision context
is :mod:`cognition.recall.gather`'s job. Full-text methods take a Lucene query
string that the caller built from escaped words
(:func:`graph.store.lucene.lucene_query`); it travels as a parameter like every
other value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from graph.models import (
    Censor,
    Decision,
    Episode,
    Fact,
    Goal,
    Lesson,
    Node,
    Pattern,
    Procedure,
    WorkingMemory,
)
from graph.store.mapping import from_properties
from graph.store.memory import Memory

N = TypeVar("N", bound=Node)


@dataclass(frozen=True)
class SimilarDecision:
    """A past decision and the way it resembles the observation in hand.

    ``decision`` carries the properties recall reads; ``prompt`` and
    ``reasoning`` are left at their defaults (they can be long, and recall does
    not show them).
    """

    similarity: str
    decision: Decision


@dataclass(frozen=True)
class TextHit(Generic[N]):
    """A node found by full-text search, with Lucene's score."""

    node: N
    score: float


@dataclass(frozen=True)
class RecallRequest:
    """What :meth:`RecallStore.recall` looks for, and how many of each (0: not queried).

    ``decisions`` counts all groups (file, kind, folder) together; ``query`` is a Lucene
    query string from :func:`graph.store.lucene.lucene_query` (``""`` for no full-text search).
    """

    path: str | None = None
    category: str | None = None
    observation_type: str | None = None
    path_pattern: str | None = None
    keys: Sequence[str] = ()
    prefix: str = ""
    session_id: str | None = None
    query: str = ""
    limits: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RecalledMemory:
    """Everything one :meth:`RecallStore.recall` found, typed."""

    decisions: list[SimilarDecision]
    patterns: list[Pattern]
    top_patterns: list[Pattern]
    goals: list[Goal]
    censors: list[Censor]
    working_memory: WorkingMemory | None
    facts: list[TextHit[Fact]]
    procedures: list[TextHit[Procedure]]
    episodes: list[TextHit[Episode]]
    lessons: list[TextHit[Lesson]]


@dataclass(frozen=True)
class Hit:
    """A node found by one method of hybrid recall: its label, id, shown text and score.

    ``score`` is the method's own (cosine, Lucene, or minus the graph rank); only the
    order within one method matters to the fusion.
    """

    label: str
    id: str
    text: str
    score: float
    at: str | None = None
    path: str | None = None


@dataclass(frozen=True)
class VectorRequest:
    """What :meth:`RecallStore.similar` searches: a vector, or the vector of the File at ``path``.

    ``exact`` names the labels to search over the agent's own vectors; ``k`` the
    candidates asked of each other label's vector index.
    """

    model: str
    labels: Sequence[str]
    limit: int
    vector: Sequence[float] | None = None
    path: str | None = None
    exact: Sequence[str] = ()
    k: Mapping[str, int] = field(default_factory=dict)


LIMITS = ("decisions", "patterns", "goals", "censors", "facts", "procedures", "episodes",
          "lessons")  # fmt: skip


class RecallStore:
    """The recall queries of one agent, typed."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    async def recall(self, request: RecallRequest) -> RecalledMemory:
        """Every recall query at once, in one round trip (``recall/context``)."""
        limits = {f"{name}_limit": max(int(request.limits.get(name, 0)), 0) for name in LIMITS}
        rows = await self.memory.read(
            "recall/context",
            path=request.path,
            category=request.category,
            observation_type=request.observation_type,
            path_pattern=request.path_pattern,
            keys=list(request.keys),
            prefix=request.prefix,
            session_id=request.session_id,
            query=request.query.strip(),
            **limits,
        )
        row = rows[0]
        return RecalledMemory(
            decisions=[self._similar(r) for r in row["decisions"]],
            patterns=[self._as(Pattern, r) for r in row["patterns"]],
            top_patterns=[self._as(Pattern, r) for r in row["top_patterns"]],
            goals=[self._as(Goal, r) for r in row["goals"]],
            censors=[self._as(Censor, r) for r in row["censors"]],
            working_memory=self._working_memory(row["working_memory"]),
            facts=[self._hit(Fact, r) for r in row["facts"]],
            procedures=[self._hit(Procedure, r) for r in row["procedures"]],
            episodes=[self._hit(Episode, r) for r in row["episodes"]],
            lessons=[self._hit(Lesson, r) for r in row["lessons"]],
        )

    async def similar(self, request: VectorRequest) -> list[Hit]:
        """Nodes nearest the vector (``recall/similar``), best first across labels."""
        rows = await self.memory.read(
            "recall/similar",
            vector=list(request.vector) if request.vector is not None else None,
            path=request.path,
            model=request.model,
            labels=list(request.labels),
            exact=list(request.exact),
            k={label: int(request.k.get(label, request.limit)) for label in request.labels},
            limit=request.limit,
        )
        return [_hit(r, float(r["score"])) for r in rows]

    async def words(self, query: str, labels: Sequence[str], limit: int) -> list[Hit]:
        """Nodes whose text matches the Lucene ``query`` (``recall/words``), best first."""
        if not query:
            return []
        rows = await self.memory.read("recall/words", query=query, labels=list(labels), limit=limit)
        return [_hit(r, float(r["score"])) for r in rows]

    async def near(
        self,
        *,
        path: str | None,
        path_pattern: str | None,
        session_id: str | None,
        limit: int,
    ) -> list[Hit]:
        """What lies near in the graph (``recall/near``): same file, pattern, session."""
        if path is None and path_pattern is None and session_id is None:
            return []
        rows = await self.memory.read(
            "recall/near",
            path=path,
            path_pattern=path_pattern,
            session_id=session_id,
            limit=limit,
        )
        return [_hit(r, -float(r["rank"])) for r in rows]

    def _similar(self, row: dict[str, Any]) -> SimilarDecision:
        return SimilarDecision(str(row.pop("similarity")), self._as(Decision, row))

    def _hit(self, model: type[N], row: dict[str, Any]) -> TextHit[N]:
        return TextHit(self._as(model, row), float(row["score"]))

    def _working_memory(self, row: Mapping[str, Any] | None) -> WorkingMemory | None:
        return self._as(WorkingMemory, row) if row else None

    def _as(self, model: type[N], row: Mapping[str, Any]) -> N:
        return from_properties(model, row, agent_id=self.memory.agent_id)


def _hit(row: Mapping[str, Any], score: float) -> Hit:
    return Hit(
        label=str(row["label"]),
        id=str(row["id"] or ""),
        text=str(row["text"] or ""),
        score=score,
        at=row["at"],
        path=row["path"],
    )
