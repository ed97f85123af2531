"""Reading what recall needs from memory: the access layer for ``cypher/recall/``.

One method per query; each returns graph models (or small typed records for
what has no model), never prompt text: turning them into a decision context
is :mod:`cognition.recall.gather`'s job. Full-text methods take a Lucene query
string that the caller built from escaped words
(:func:`graph.store.lucene.lucene_query`); it travels as a parameter like every
other value.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
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
from graph.models.paths import path_pattern
from graph.store.agent_graph import AgentGraph
from graph.store.lucene import agent_query
from graph.store.mapping import from_properties
from graph.store.rows.recall import Investigation

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
    context: str = ""  # a fact's: the text of the fact remembered just before it


@dataclass(frozen=True)
class HybridRequest:
    """What :meth:`RecallStore.hybrid` searches, each method's limit (0: not searched).

    ``query`` is a Lucene query from :func:`graph.store.lucene.agent_query`;
    ``vector`` the query's vector, or None to use the vector of the File at
    ``path``; ``near`` the nearest nodes already found in memory (element id,
    score), else the vector index is asked for ``k`` candidates.
    """

    model: str
    query: str = ""
    vector: Sequence[float] | None = None
    path: str | None = None
    path_pattern: str | None = None
    session_id: str | None = None
    near: Sequence[tuple[str, float]] | None = None
    k: int = 10
    words_limit: int = 10
    meaning_limit: int = 10
    graph_limit: int = 10
    useful_only: bool = False  # leave out decisions that did nothing (not Consequential)


@dataclass(frozen=True)
class FileChange:
    """One change to a file: when, what kind, and who made it (the agent or a person)."""

    at: str
    type: str
    by: str
    execution_id: str | None = None


@dataclass(frozen=True)
class FileChanges:
    """What recently changed in one file: how often (``total``, ``by_agent``), newest first."""

    path: str
    total: int
    by_agent: int
    changes: list[FileChange]


@dataclass(frozen=True)
class HybridHits:
    """Each method's hits, best first."""

    words: list[Hit]
    meaning: list[Hit]
    graph: list[Hit]


LIMITS = ("decisions", "patterns", "goals", "censors", "facts", "procedures", "episodes",
          "lessons")  # fmt: skip


class RecallStore:
    """The recall queries of one agent, typed."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def recall(self, request: RecallRequest) -> RecalledMemory:
        """Every recall query at once, in one round trip (``recall/context``)."""
        limits = {f"{name}_limit": max(int(request.limits.get(name, 0)), 0) for name in LIMITS}
        rows = await self.graph.read(
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

    async def hybrid(self, request: HybridRequest) -> HybridHits:
        """Words, meaning and graph proximity (``recall/hybrid``), best first each.

        One statement, except when the vector index is asked (a big agent's
        recall by meaning, the slowest method at scale) beside words or graph:
        then the index search runs as a statement of its own, at the same time
        as the other, so the server works on both at once (one statement takes
        the sum of the three; each alone on a million nodes, p50: meaning 11-15 ms,
        words 6-10, graph 2-4; bench.recall).
        """
        by_index = (
            request.near is None
            and request.meaning_limit > 0
            and (request.vector is not None or request.path is not None)
        )
        if not by_index or (request.words_limit <= 0 and request.graph_limit <= 0):
            return await self._hybrid(request)
        others, meaning = await asyncio.gather(
            self._hybrid(replace(request, meaning_limit=0)),
            self._hybrid(replace(request, query="", words_limit=0, graph_limit=0)),
        )
        return HybridHits(words=others.words, meaning=meaning.meaning, graph=others.graph)

    async def _hybrid(self, request: HybridRequest) -> HybridHits:
        [row] = await self.graph.read(
            "recall/hybrid",
            query=request.query,
            vector=list(request.vector)
            if request.vector is not None and request.meaning_limit > 0
            else None,
            path=request.path,
            path_pattern=request.path_pattern,
            session_id=request.session_id,
            model=request.model,
            near=None
            if request.near is None
            else [{"eid": eid, "score": score} for eid, score in request.near],
            k=max(request.k, 1),
            words_limit=request.words_limit,
            meaning_limit=request.meaning_limit,
            graph_limit=request.graph_limit,
            useful_only=request.useful_only,
        )
        return HybridHits(
            words=[_hit(r) for r in row["words"]],
            meaning=[_hit(r) for r in row["meaning"]],
            graph=[_hit(r) for r in row["graph"]],
        )

    async def file_changes(self, paths: Sequence[str], *, limit: int = 5) -> list[FileChanges]:
        """What recently changed in each of ``paths`` and by whom (``recall/file_changes``)."""
        if not paths:
            return []
        rows = await self.graph.read("recall/file_changes", paths=list(paths), limit=limit)
        return [
            FileChanges(
                path=str(r["path"]),
                total=int(r["total"]),
                by_agent=int(r["by_agent"]),
                changes=[
                    FileChange(
                        at=str(c["at"]),
                        type=str(c["type"] or "changed"),
                        by=str(c["by"]),
                        execution_id=c["execution_id"],
                    )
                    for c in r["changes"]
                ],
            )
            for r in rows
        ]

    async def investigation(
        self, query: str, path: str | None, *, window_s: float, limit: int
    ) -> Investigation:
        """What an investigation's questions find (``recall/investigate``), in one round trip.

        One row: ``texts`` (full-text hits over facts, lessons, episodes and
        past reasoning), ``history`` (the file's changes), ``together`` (files
        changed within ``window_s`` of it) and ``outcomes`` (per decision type
        and template on the same path pattern).
        """
        [row] = await self.graph.read(
            "recall/investigate",
            query=query,
            decision_query=agent_query(query, self.graph.agent_id),
            path=path,
            path_pattern=path_pattern(path),
            window_s=window_s,
            limit=limit,
        )
        return Investigation.from_record(row)

    def _similar(self, row: dict[str, Any]) -> SimilarDecision:
        return SimilarDecision(str(row.pop("similarity")), self._as(Decision, row))

    def _hit(self, model: type[N], row: dict[str, Any]) -> TextHit[N]:
        return TextHit(self._as(model, row), float(row["score"]))

    def _working_memory(self, row: Mapping[str, Any] | None) -> WorkingMemory | None:
        return self._as(WorkingMemory, row) if row else None

    def _as(self, model: type[N], row: Mapping[str, Any]) -> N:
        return from_properties(model, row, agent_id=self.graph.agent_id)


def _hit(row: Mapping[str, Any]) -> Hit:
    return Hit(
        label=str(row["label"]),
        id=str(row["id"] or ""),
        text=str(row["text"] or ""),
        score=float(row["score"]),
        at=row["at"],
        path=row["path"],
        context=str(row.get("context") or ""),
    )
