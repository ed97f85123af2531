"""What a bank of credited memories (cases, code notes) does alike: shown, credited, retired.

Each bank keeps the same three statements under its own query folder
(``<folder>/mark_shown``, ``credit_session``, ``retire``); the stores differ in
what they hold and how they are recalled, not in how an outcome credits them.
"""

from __future__ import annotations

from collections.abc import Sequence

from graph.models import utc_now
from graph.store.agent_graph import AgentGraph


class CreditedBank:
    """Marks a session's shown items, credits them by its outcome, and retires items."""

    folder: str  # the query folder: "cases", "code_notes"

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    @property
    def agent_id(self) -> str:
        """The agent whose items these are."""
        return self.graph.agent_id

    async def mark_shown(self, ids: Sequence[str], session_id: str) -> None:
        """Remember that ``session_id``'s next turn was shown these items."""
        if ids:
            await self.graph.write(
                f"{self.folder}/mark_shown", ids=list(ids), session_id=session_id
            )

    async def credit_session(self, session_id: str, *, helpful: bool) -> int:
        """Credit the items ``session_id``'s turn was shown by its outcome; forget the mark."""
        rows = await self.graph.write(
            f"{self.folder}/credit_session", session_id=session_id, helpful=helpful, now=utc_now()
        )
        return int(rows[0]["credited"]) if rows else 0

    async def retire(self, reasons: Sequence[tuple[str, str]]) -> list[str]:
        """Retire items, each ``(id, reason)``; return the ids retired."""
        if not reasons:
            return []
        rows = await self.graph.write(
            f"{self.folder}/retire",
            rows=[{"id": i, "reason": r} for i, r in reasons],
            now=utc_now(),
        )
        return [str(r["id"]) for r in rows]
