"""A team's decisions as stated, kept and read: the access layer for ``cypher/decisions/``.

A decision is a ``Fact`` of kind ``decision`` (issue 58): the sentence that
states a rule, a choice or a constraint with its reason, where it was stated
(``STATED_IN`` an ``Utterance`` or a ``Commit``), what it concerns (code
names and files), its project and scope, and its validity (``valid_from``;
``invalid_at`` once a later decision ``SUPERSEDES`` it). Decisions of scope
``project`` are every agent's of the project on this Neo4j; everything
else stays the agent's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from graph.ids import new_id, utc_now
from graph.store.agent_graph import AgentGraph
from graph.store.lucene import lucene_query, scoped_query

SUBJECT_BOOST = 2
"""How much more a prompt's word weighs when it names what a decision is about."""


@dataclass(frozen=True)
class NewDecision:
    """A decision to keep: as stated, when, by whom and where."""

    text: str
    subjects: tuple[str, ...]
    files: tuple[str, ...]
    decision_text: str
    """What words find it by: the text, then its subjects and files as plain words."""
    subject_text: str
    """Its subjects and files as plain words (matches there weigh more)."""
    valid_from: str
    """When it was stated (ISO 8601)."""
    source: str
    """``session`` or ``commit``."""
    session_id: str | None = None
    speaker: str | None = None
    sha: str | None = None
    utterance_id: str | None = None


@dataclass(frozen=True)
class StatedDecision:
    """A kept decision, as recall and ``nous why`` show it."""

    id: str
    text: str
    subjects: tuple[str, ...]
    files: tuple[str, ...]
    valid_from: str
    invalid_at: str | None
    source: str
    session_id: str | None
    sha: str | None
    scope: str
    agent_id: str
    replaces: str | None = None
    """When the decision it superseded took effect (recall's rows only)."""
    replaced: tuple[str, ...] = ()
    """The texts of the decisions it superseded (recall's rows only)."""
    score: float = 0.0


@dataclass(frozen=True)
class StatedIn:
    """What a decision is ``STATED_IN``: an ``Utterance`` (its session and turn) or a
    ``Commit`` (its sha)."""

    label: str
    id: str
    sha: str | None
    session_id: str | None
    turn_id: str | None


@dataclass(frozen=True)
class Provenance:
    """A decision's links: where it was stated, the files it concerns."""

    stated_in: tuple[StatedIn, ...]
    concerns: tuple[str, ...]


class TeamDecisionStore:
    """The decisions of one project as one agent sees them (its own and the project's)."""

    def __init__(self, graph: AgentGraph, project: str, *, shared: bool = True) -> None:
        """``shared``: this agent's decisions are the project's (scope ``project``), else its
        own (scope ``agent``)."""
        self.graph = graph
        self.project = project
        self.scope = "project" if shared else "agent"

    async def record(self, decisions: Sequence[NewDecision]) -> list[str]:
        """Keep ``decisions``; their ids, in order."""
        if not decisions:
            return []
        rows = [
            {
                "id": new_id(),
                "text": d.text,
                "decision_text": d.decision_text,
                "subject_text": d.subject_text,
                "subjects": list(d.subjects),
                "files": list(d.files),
                "project": self.project,
                "scope": self.scope,
                "valid_from": d.valid_from,
                "source": d.source,
                "session_id": d.session_id,
                "speaker": d.speaker,
                "sha": d.sha,
                "utterance_id": d.utterance_id,
            }
            for d in decisions
        ]
        found = await self.graph.write("decisions/record", rows=rows, now=utc_now())
        return [str(r["id"]) for r in found]

    async def in_force_about(self, texts: Sequence[str], limit: int = 10) -> list[StatedDecision]:
        """The project's decisions in force whose words, subjects or files match ``texts``."""
        query = self._query(texts)
        if not query:
            return []
        rows = await self.graph.read(
            "decisions/about", project=self.project, query=query, limit=limit
        )
        return [_decision(r["decision"], r["score"]) for r in rows]

    async def supersede(self, new_id_: str, old_id: str) -> bool:
        """``new_id_`` supersedes ``old_id`` (whose validity ends); False if either is missing."""
        rows = await self.graph.write(
            "decisions/supersede", project=self.project, new_id=new_id_, old_id=old_id
        )
        return bool(rows)

    async def for_prompt(self, texts: Sequence[str], limit: int = 10) -> list[StatedDecision]:
        """The decisions in force that ``texts`` (a prompt, its code names as words) find, best
        first: a superseded decision found is replaced by the one in force."""
        query = self._query(texts)
        if not query:
            return []
        rows = await self.graph.read(
            "decisions/for_prompt", project=self.project, query=query, limit=limit
        )
        return [_decision(r["decision"], r["score"]) for r in rows]

    async def of_session(self, session_id: str, limit: int = 3) -> list[StatedDecision]:
        """The decisions in force this agent kept from ``session_id``, newest first."""
        rows = await self.graph.read(
            "decisions/of_session", project=self.project, session_id=session_id, limit=limit
        )
        return [_decision(r["decision"], 0.0) for r in rows]

    async def chain(self, decision_id: str) -> list[StatedDecision]:
        """``decision_id``'s chain of supersession, newest first ([] if no such decision)."""
        rows = await self.graph.read("decisions/chain", decision_id=decision_id)
        return [_decision(r["decision"], 0.0) for r in rows]

    async def provenance(self, decision_id: str) -> Provenance | None:
        """Where ``decision_id`` was stated and the files it concerns; None if not a decision."""
        rows = await self.graph.read("decisions/provenance", decision_id=decision_id)
        if not rows:
            return None
        stated = tuple(
            StatedIn(
                str(s["label"]), str(s["id"]), s.get("sha"), s.get("session_id"), s.get("turn_id")
            )
            for s in rows[0]["stated_in"]
        )
        return Provenance(stated, tuple(str(p) for p in rows[0]["concerns"]))

    def _query(self, texts: Sequence[str]) -> str:
        """Any word of ``texts``; a word the decision is about (``subject_text``) weighs
        :data:`SUBJECT_BOOST` times more."""
        words = lucene_query(texts, max_terms=48)
        if not words:
            return ""
        about = f"{words} OR subject_text:({words})^{SUBJECT_BOOST}"
        return scoped_query(about, "project", self.project)


def _decision(row: dict[str, Any], score: float) -> StatedDecision:
    return StatedDecision(
        id=str(row["id"]),
        text=str(row["text"]),
        subjects=tuple(row.get("subjects") or ()),
        files=tuple(row.get("files") or ()),
        valid_from=str(row["valid_from"]),
        invalid_at=row.get("invalid_at"),
        source=str(row.get("source") or "session"),
        session_id=row.get("session_id"),
        sha=row.get("sha"),
        scope=str(row.get("scope") or "project"),
        agent_id=str(row.get("agent_id") or ""),
        replaces=row.get("replaces"),
        replaced=tuple(row.get("replaced") or ()),
        score=float(score or 0.0),
    )
