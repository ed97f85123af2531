"""What the agent learns from outcomes: the access layer for that part of ``cypher/learn/``.

Pattern statistics, lessons and calibration data after each outcome, the
deliberation a decision starts with, and the credit its heuristics get.
Censors (:mod:`graph.store.censors`), the audit stream
(:mod:`graph.store.events`) and episodes (:mod:`graph.store.episodes`) have
stores of their own. Models go in, models come out; the Cypher lives in
``cypher/learn`` and ``cypher/audit``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel

from graph.models import Decision, Lesson, Pattern, new_id, utc_now
from graph.store.lean_memory import LeanMemory
from graph.store.mapping import from_properties, from_row, to_properties
from graph.store.rows.learning import SupersededDecision, TurnDecision


class CalibrationBucket(BaseModel):
    """Decisions taken with a confidence in [lower, upper), and how many succeeded."""

    bucket: int
    lower: float
    upper: float
    count: int
    successes: int
    success_rate: float | None = None
    mean_confidence: float | None = None


def calibration_bucket(confidence: float) -> int:
    """The bucket of a confidence: 0 for 0.0-0.1 … 9 for 0.9-1.0 (1.0 included)."""
    # The epsilon keeps 0.3 (stored as 0.29999…) in bucket 3.
    return min(9, max(0, math.floor(confidence * 10 + 1e-9)))


class LearningStore:
    """What one agent learns from outcomes: patterns, lessons, calibration, heuristic credit.

    Censors are :class:`graph.store.censors.CensorStore`'s, events
    :class:`graph.store.events.EventStore`'s, episodes
    :class:`graph.store.episodes.EpisodeStore`'s.
    """

    def __init__(self, graph: LeanMemory) -> None:
        self.graph = graph

    async def update_pattern(self, key: str, *, success: bool, confidence: float) -> Pattern:
        """Count one outcome in the pattern ``key`` (created if absent); return its new stats."""
        counted = await self.graph.calls.count_outcome(key, success=success, confidence=confidence)
        return from_row(Pattern, counted)

    async def pattern(self, key: str) -> Pattern | None:
        """The statistics of one pattern, or None before its first decision."""
        rows = await self.graph.read("learn/pattern_by_key", key=key)
        return from_properties(Pattern, rows[0]["pattern"]) if rows else None

    async def record_outcome(
        self,
        decision_id: str,
        *,
        success: bool,
        confidence: float,
        execution_id: str | None = None,
    ) -> bool:
        """Store the outcome and calibration data on a decision, once.

        True when recorded now; False when the decision was learned from
        before (or does not exist), so a repeated call never counts twice.
        """
        rows = await self.graph.write(
            "learn/record_outcome",
            decision_id=decision_id,
            success=success,
            confidence=float(confidence),
            bucket=calibration_bucket(confidence),
            execution_id=execution_id,
            now=utc_now(),
        )
        return bool(rows and rows[0]["first"])

    async def superseded_chain(self, decision_id: str) -> list[SupersededDecision]:
        """The decisions ``decision_id`` superseded, directly or not, not yet learned from."""
        rows = await self.graph.read("learn/superseded_chain", decision_id=decision_id)
        return [
            SupersededDecision(str(r["id"]), r["pattern_key"], float(r["confidence"] or 0.0))
            for r in rows
        ]

    async def record_lessons(
        self, lessons: Sequence[Lesson], *, execution_id: str | None = None
    ) -> list[str]:
        """Write lessons, each ``LEARNED_FROM`` its decision; return the ids written."""
        extra = {"execution_id": execution_id} if execution_id else {}
        rows = [{**to_properties(lesson), **extra} for lesson in lessons]
        if not rows:
            return []
        written = await self.graph.write("learn/record_lessons", rows=rows)
        return [str(r["id"]) for r in written]

    async def lessons_for(self, decision_id: str) -> list[Lesson]:
        """The lessons learned from one decision, oldest first."""
        rows = await self.graph.read("learn/lessons_for_decision", decision_id=decision_id)
        return [from_properties(Lesson, r["lesson"]) for r in rows]

    async def calibration(self) -> list[CalibrationBucket]:
        """Ten confidence buckets with their count and success rate (``audit/calibration``)."""
        rows = await self.graph.read("audit/calibration")
        return [CalibrationBucket.model_validate(r) for r in rows]

    async def decision(self, decision_id: str) -> Decision | None:
        """One decision by id, or None."""
        rows = await self.graph.read("learn/decision_by_id", decision_id=decision_id)
        return from_properties(Decision, rows[0]["decision"]) if rows else None

    async def start_deliberation(
        self,
        decision: Decision,
        *,
        description: str,
        episode_id: str | None = None,
        turn: TurnDecision | None = None,
    ) -> str:
        """Record a deliberating decision with its description, pattern and episode (and, for a
        Claude Code turn's, its session, stakes and tags)."""
        properties = {**to_properties(decision), "description": description}
        if turn is not None:
            properties |= {"session_id": turn.session_id, "stakes": turn.stakes}
            properties["tags"] = list(turn.tags)
        key = decision.pattern_key
        rows = await self.graph.write(
            "learn/start_deliberation",
            decision=properties,
            pattern={"id": new_id(), "key": key} if key else None,
            episode_id=episode_id,
        )
        return str(rows[0]["id"])

    async def credit_heuristics(self, source_id: str, *, success: bool) -> int:
        """Move helpful or harmful on every heuristic a decision or trajectory applied.

        ``source_id`` is a Decision's id (never credited for dry runs) or a
        practice Trajectory's: one path for both. Returns how many heuristics
        were credited. Call once per outcome (for a decision, after
        :meth:`record_outcome` said it was the first).
        """
        rows = await self.graph.write(
            "learn/credit_heuristics", source_id=source_id, success=success, now=utc_now()
        )
        return int(rows[0]["credited"]) if rows else 0
