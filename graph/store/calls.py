"""A tool call's hooks in the graph, without pydantic: the gate's lookup, the turn's result,
the call's record, the audit event.

``PreToolUse`` and ``PostToolUse`` run before and after every tool call a
model makes, each in a process of its own when no daemon runs (issue 27), so
what they read and write is here, over plain properties, in a module that
loads no node model. The stores that hand out models build on it
(:class:`~graph.store.turns.TurnStore`, :class:`~graph.store.events.EventStore`,
:class:`~graph.store.learning.LearningStore`): each statement is run from one
place. What is written is what the models would write (a test compares them).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from graph.ids import new_id, utc_now
from graph.store.agent_graph import AgentGraph
from graph.store.rows import from_stored
from graph.store.rows.calls import ToolResultRow
from graph.store.rows.session import CensorRow, PatternRow

GATE_LIMIT = 5
"""The most censors the gate asks for about one call."""

log = logging.getLogger(__name__)


def event_properties(
    agent_id: str, event_type: str, data: Mapping[str, object], *, session_id: str | None = None
) -> dict[str, Any]:
    """The properties of a new ``Event`` (data as a JSON string), for any statement that
    writes one beside what it records: :class:`graph.models.Event`'s, as stored."""
    properties: dict[str, Any] = {
        "id": new_id(),
        "agent_id": agent_id,
        "at": utc_now(),
        "type": event_type,
        "data": json.dumps(dict(data), sort_keys=True, default=str),
    }
    if session_id is not None:
        properties["session_id"] = session_id
    return properties


class CallStore:
    """What the hooks of one agent's tool calls read and write (see the module)."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def censors_for_call(self, call_key: str, limit: int = GATE_LIMIT) -> list[CensorRow]:
        """The active censors learned from the call with this key, block first."""
        rows = await self.graph.read("chat/censors_for_call", call_key=call_key, limit=limit)
        return [from_stored(CensorRow, r["censor"]) for r in rows]

    async def record_tool_result(
        self, session_id: str, result: ToolResultRow, *, keep: int
    ) -> str | None:
        """Append one tool result to the session's open turn; the turn's id, None without one.

        The turn keeps at most ``keep`` results: past that the oldest successful
        one is dropped (an error only when all kept are errors) and counted.
        A result with an ``error`` is a failed call.
        """
        rows = await self.graph.write(
            "chat/record_tool_result",
            session_id=session_id,
            result=result.to_json(),
            failed=result.failed,
            keep=max(1, int(keep)),
        )
        return str(rows[0]["id"]) if rows else None

    async def count_outcome(self, key: str, *, success: bool, confidence: float) -> PatternRow:
        """Count one outcome in the pattern ``key`` (created if absent); the pattern after."""
        rows = await self.graph.write(
            "learn/update_pattern",
            id=new_id(),
            key=key,
            success=success,
            confidence=float(confidence),
            now=utc_now(),
        )
        return from_stored(PatternRow, rows[0]["pattern"])

    async def emit(
        self, event_type: str, data: Mapping[str, object], *, session_id: str | None = None
    ) -> str | None:
        """Append an ``Event`` to the audit stream; never raises (a failure is logged).

        Returns the event's id, or None when it could not be written.
        """
        try:
            properties = event_properties(
                self.graph.agent_id, event_type, data, session_id=session_id
            )
            rows = await self.graph.write("learn/emit_event", event=properties)
            return str(rows[0]["id"])
        except Exception as exc:  # the audit stream must never break what it records
            # GraphError messages name the query, never its parameters.
            log.warning("event %r not recorded: %s: %s", event_type, type(exc).__name__, exc)
            return None
