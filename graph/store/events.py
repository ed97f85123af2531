"""The ``Event`` audit stream, written and read: the access layer for its part of ``cypher/learn/``.

Every component appends what it did here (a decision settled, a censor lifted,
a goal added); ``nous audit`` and the status line read it back. Writing an
event never raises: the stream must not break what it records.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping

from graph.models import Event
from graph.store.lean_memory import LeanMemory
from graph.store.mapping import from_properties

log = logging.getLogger(__name__)


class EventStore:
    """One agent's audit stream of ``Event`` nodes."""

    def __init__(self, graph: LeanMemory) -> None:
        self.graph = graph

    async def emit(
        self, event_type: str, data: Mapping[str, object], *, session_id: str | None = None
    ) -> str | None:
        """Append an ``Event`` to the audit stream; never raises (a failure is logged).

        Returns the event's id, or None when it could not be written.
        """
        return await self.graph.calls.emit(event_type, data, session_id=session_id)

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
