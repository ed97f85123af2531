"""What the agent learns, written and read: the access layer for ``cypher/learn/``.

Pattern statistics, lessons and calibration data after each outcome;
censors that warn and then block; the ``Event`` audit stream; and, from
:mod:`graph.store.episodes`, one open episode per session, working memory, and the
facts and procedures an episode supports. Models go in, models come out;
the Cypher lives in ``cypher/learn`` and ``cypher/audit``.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from graph.models import Censor, Decision, Event, Lesson, Pattern, new_id, utc_now
from graph.store.episodes import EpisodeStore
from graph.store.mapping import from_properties, to_properties
from graph.store.memory import path_pattern

log = logging.getLogger(__name__)

# A censor is created at its first firing (fire_count 1, severity warn); the
# second time the same thing goes wrong it blocks.
BLOCK_AFTER_FIRES = 2


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


def censor_trigger(template: str, path: str | None) -> str:
    """The trigger a failed action's censor is filed under: template and path pattern.

    Planning looks a censor up by it before acting; learning files one under it.
    """
    return f"{template} on {path_pattern(path) or 'no path'}"


class LearningStore(EpisodeStore):
    """Everything one agent learns: patterns, lessons, calibration, censors, events.

    Episodes, working memory, facts and procedures come from
    :class:`graph.store.episodes.EpisodeStore`.
    """

    async def update_pattern(self, key: str, *, success: bool, confidence: float) -> Pattern:
        """Count one outcome in the pattern ``key`` (created if absent); return its new stats."""
        rows = await self.memory.write(
            "learn/update_pattern",
            id=new_id(),
            key=key,
            success=success,
            confidence=float(confidence),
            now=utc_now(),
        )
        return from_properties(Pattern, rows[0]["pattern"])

    async def pattern(self, key: str) -> Pattern | None:
        """The statistics of one pattern, or None before its first decision."""
        rows = await self.memory.read("learn/pattern_by_key", key=key)
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
        rows = await self.memory.write(
            "learn/record_outcome",
            decision_id=decision_id,
            success=success,
            confidence=float(confidence),
            bucket=calibration_bucket(confidence),
            execution_id=execution_id,
            now=utc_now(),
        )
        return bool(rows and rows[0]["first"])

    async def superseded_chain(self, decision_id: str) -> list[dict[str, Any]]:
        """The decisions ``decision_id`` superseded, directly or not, not yet learned from."""
        return await self.memory.read("learn/superseded_chain", decision_id=decision_id)

    async def record_lessons(
        self, lessons: Sequence[Lesson], *, execution_id: str | None = None
    ) -> list[str]:
        """Write lessons, each ``LEARNED_FROM`` its decision; return the ids written."""
        extra = {"execution_id": execution_id} if execution_id else {}
        rows = [{**to_properties(lesson), **extra} for lesson in lessons]
        if not rows:
            return []
        written = await self.memory.write("learn/record_lessons", rows=rows)
        return [str(r["id"]) for r in written]

    async def lessons_for(self, decision_id: str) -> list[Lesson]:
        """The lessons learned from one decision, oldest first."""
        rows = await self.memory.read("learn/lessons_for_decision", decision_id=decision_id)
        return [from_properties(Lesson, r["lesson"]) for r in rows]

    async def calibration(self) -> list[CalibrationBucket]:
        """Ten confidence buckets with their count and success rate (``audit/calibration``)."""
        rows = await self.memory.read("audit/calibration")
        return [CalibrationBucket.model_validate(r) for r in rows]

    async def decision(self, decision_id: str) -> Decision | None:
        """One decision by id, or None."""
        rows = await self.memory.read("learn/decision_by_id", decision_id=decision_id)
        return from_properties(Decision, rows[0]["decision"]) if rows else None

    async def start_deliberation(
        self,
        decision: Decision,
        *,
        description: str,
        episode_id: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> str:
        """Record a deliberating decision with its description, pattern and episode."""
        properties = {**to_properties(decision), **dict(extra or {}), "description": description}
        key = decision.pattern_key
        rows = await self.memory.write(
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
        rows = await self.memory.write(
            "learn/credit_heuristics", source_id=source_id, success=success, now=utc_now()
        )
        return int(rows[0]["credited"]) if rows else 0

    async def create_censor(self, censor: Censor, *, learned_from: str | None = None) -> str:
        """Write a censor, ``LEARNED_FROM`` the Execution or Episode ``learned_from`` names."""
        rows = await self.memory.write(
            "learn/create_censor", censor=to_properties(censor), source_id=learned_from
        )
        return str(rows[0]["id"])

    async def fire_censor(self, censor_id: str, *, may_block: bool = True) -> Censor | None:
        """Count one firing; warn becomes block at ``BLOCK_AFTER_FIRES`` (unless ``may_block``
        is false: the firing is counted, the severity kept). None if no such censor."""
        rows = await self.memory.write(
            "learn/fire_censor",
            censor_id=censor_id,
            # A count no censor reaches: fired, never blocked by this firing.
            block_after=BLOCK_AFTER_FIRES if may_block else 2**62,
            now=utc_now(),
        )
        return from_properties(Censor, rows[0]["censor"]) if rows else None

    async def censor_by_trigger(self, trigger: str) -> Censor | None:
        """The active censor with exactly this trigger, or None."""
        rows = await self.memory.read("learn/censor_by_trigger", trigger=trigger)
        return from_properties(Censor, rows[0]["censor"]) if rows else None

    async def censor_by_call(self, call_key: str) -> Censor | None:
        """The active censor learned from the tool call with this key, or None."""
        rows = await self.memory.read("learn/censor_by_call", call_key=call_key)
        return from_properties(Censor, rows[0]["censor"]) if rows else None

    async def active_censors(self, limit: int = 20) -> list[Censor]:
        """Active censors, block first, then the most fired."""
        rows = await self.memory.read("learn/active_censors", limit=limit)
        return [from_properties(Censor, r["censor"]) for r in rows]

    async def active_censor_triggers(self, limit: int = 20) -> list[str]:
        """The triggers of :meth:`active_censors`, in its order: no models made on the way.

        For a turn's context, built at every prompt, which names the censors only.
        """
        rows = await self.memory.read("learn/active_censors", limit=limit)
        return [str(r["censor"]["trigger_pattern"]) for r in rows]

    async def emit(
        self, event_type: str, data: Mapping[str, Any], *, session_id: str | None = None
    ) -> str | None:
        """Append an ``Event`` to the audit stream; never raises (a failure is logged).

        Returns the event's id, or None when it could not be written.
        """
        try:
            properties = self.event_properties(event_type, data, session_id=session_id)
            rows = await self.memory.write("learn/emit_event", event=properties)
            return str(rows[0]["id"])
        except Exception as exc:  # the audit stream must never break what it records
            # GraphError messages name the query, never its parameters.
            log.warning("event %r not recorded: %s: %s", event_type, type(exc).__name__, exc)
            return None

    def event_properties(
        self, event_type: str, data: Mapping[str, Any], *, session_id: str | None = None
    ) -> dict[str, Any]:
        """An ``Event``'s properties as :meth:`emit` writes them (data as a JSON string), for a
        statement that writes the event beside what it records."""
        event = Event(agent_id=self.agent_id, type=event_type, data=dict(data))
        properties = to_properties(event)
        properties["data"] = json.dumps(dict(data), sort_keys=True, default=str)
        if session_id is not None:
            properties["session_id"] = session_id
        return properties

    async def events(self, event_type: str, limit: int = 50) -> list[Event]:
        """The latest events of one type, newest first, their data decoded."""
        rows = await self.memory.read("learn/events_by_type", type=event_type, limit=limit)
        out = []
        for row in rows:
            props = dict(row["event"])
            raw = props.get("data")
            props["data"] = json.loads(raw) if isinstance(raw, str) else {}
            out.append(from_properties(Event, props))
        return out
