"""The ``Event`` audit stream, written and read: the access layer for its part of ``cypher/learn/``.

Every component appends what it did here (a decision settled, a censor lifted,
a goal added); ``nous audit`` and the status line read it back. Writing an
event never raises: the stream must not break what it records.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from graph.models import Event
from graph.store.agent_graph import AgentGraph
from graph.store.mapping import from_properties, to_properties

log = logging.getLogger(__name__)


def event_properties(
    agent_id: str, event_type: str, data: Mapping[str, Any], *, session_id: str | None = None
) -> dict[str, Any]:
    """The properties of a new ``Event`` (data as a JSON string), for any statement that
    writes one beside what it records."""
    event = Event(agent_id=agent_id, type=event_type, data=dict(data))
    properties = to_properties(event)
    properties["data"] = json.dumps(dict(data), sort_keys=True, default=str)
    if session_id is not None:
        properties["session_id"] = session_id
    return properties


class EventStore:
    """One agent's audit stream of ``Event`` nodes."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def emit(
        self, event_type: str, data: Mapping[str, Any], *, session_id: str | None = None
    ) -> str | None:
        """Append an ``Event`` to the audit stream; never raises (a failure is logged).

        Returns the event's id, or None when it could not be written.
        """
        try:
            properties = self.event_properties(event_type, data, session_id=session_id)
            rows = await self.graph.write("learn/emit_event", event=properties)
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
        return event_properties(self.graph.agent_id, event_type, data, session_id=session_id)

    async def events(self, event_type: str, limit: int = 50) -> list[Event]:
        """The latest events of one type, newest first, their data decoded."""
        rows = await self.graph.read("learn/events_by_type", type=event_type, limit=limit)
        out = []
        for row in rows:
            props = dict(row["event"])
            raw = props.get("data")
            props["data"] = json.loads(raw) if isinstance(raw, str) else {}
            out.append(from_properties(Event, props))
        return out
