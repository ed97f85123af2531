"""Claude Code turns, written and read: the access layer for ``cypher/chat/``.

Each Claude Code hook is a process of its own, so what a session needs from
one hook to the next lives here: the open :class:`Turn` (its decision, its
episode, the tool results so far). Also the censor gate's lookup (the active
censors learned from the very call about to run).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graph.models import Censor, Turn, utc_now
from graph.store.calls import GATE_LIMIT, event_properties
from graph.store.lean_memory import LeanMemory
from graph.store.mapping import from_properties, from_row, to_properties
from graph.store.rows.calls import ToolResultRow
from graph.store.rows.events import NewEvent


class TurnStore:
    """The Claude Code turns of one agent, and what its hooks look up."""

    def __init__(self, graph: LeanMemory) -> None:
        self.graph = graph

    async def open_turn(self, turn: Turn, event: NewEvent | None = None) -> str:
        """Write ``turn`` as the session's open turn (an earlier open one is abandoned).

        ``event``: an audit ``Event`` written with it, in the same statement.
        """
        properties = to_properties(turn)
        properties.pop("agent_id", None)
        rows = await self.graph.write(
            "chat/open_turn",
            turn=properties,
            episode_id=turn.episode_id,
            decision_id=turn.decision_id,
            now=utc_now(),
            event=None
            if event is None
            else event_properties(
                self.graph.agent_id, event.type, event.data, session_id=event.session_id
            ),
        )
        return str(rows[0]["id"])

    async def open_turn_of(self, session_id: str) -> Turn | None:
        """The session's open turn, or None."""
        rows = await self.graph.read("chat/open_turn_of_session", session_id=session_id)
        return self._turn(rows[0]["turn"]) if rows else None

    async def latest_turn_of(self, session_id: str) -> Turn | None:
        """The session's latest turn, open or closed, or None."""
        rows = await self.graph.read("chat/latest_turn_of_session", session_id=session_id)
        return self._turn(rows[0]["turn"]) if rows else None

    async def record_tool_result(
        self, session_id: str, result: ToolResultRow, *, keep: int
    ) -> str | None:
        """:meth:`graph.store.calls.CallStore.record_tool_result`."""
        return await self.graph.calls.record_tool_result(session_id, result, keep=keep)

    async def close_turn(
        self, turn_id: str, *, response: str, outcome: str, surprise: float
    ) -> bool:
        """Close an open turn with what came of it; False when it was not open."""
        rows = await self.graph.write(
            "chat/close_turn",
            turn_id=turn_id,
            response=response,
            outcome=outcome,
            surprise=float(surprise),
            now=utc_now(),
        )
        return bool(rows)

    async def close_session_turns(self, session_id: str) -> int:
        """Mark the session's turns still open as abandoned; how many."""
        rows = await self.graph.write(
            "chat/close_session_turns", session_id=session_id, now=utc_now()
        )
        return int(rows[0]["closed"]) if rows else 0

    async def session_turns(self, session_id: str, limit: int = 200) -> list[Turn]:
        """A session's turns, oldest first."""
        rows = await self.graph.read("chat/session_turns", session_id=session_id, limit=limit)
        return [self._turn(r["turn"]) for r in rows]

    async def turns_for_decision(self, decision_id: str) -> list[Turn]:
        """The turns a decision was opened for (``nous why``)."""
        rows = await self.graph.read("chat/turns_for_decision", decision_id=decision_id)
        return [self._turn(r["turn"]) for r in rows]

    async def censors_for_call(self, call_key: str, limit: int = GATE_LIMIT) -> list[Censor]:
        """Active censors learned from the tool call with this key, block first."""
        found = await self.graph.calls.censors_for_call(call_key, limit)
        return [from_row(Censor, row) for row in found]

    def _turn(self, properties: Mapping[str, Any]) -> Turn:
        return from_properties(Turn, dict(properties), agent_id=self.graph.agent_id)


def tool_results(turn: Turn) -> list[ToolResultRow]:
    """The turn's tool results, decoded (a result that does not decode is skipped)."""
    decoded = (ToolResultRow.from_json(raw) for raw in turn.tool_results)
    return [r for r in decoded if r is not None]
