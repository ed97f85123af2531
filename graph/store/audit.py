"""What a person or a client looks at: the listing queries of ``cypher/audit/``, typed.

The readers behind ``nous goals``, ``nous escalations`` and the MCP server's
tools of the same names. Rows are plain dicts of the columns each query
file's header lists.
"""

from __future__ import annotations

from typing import Any

from graph.store.memory import Memory


class AuditStore:
    """The audit listings of one agent."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    async def open_escalations(self, limit: int) -> list[dict[str, Any]]:
        """Escalations waiting for a person, newest first (id, at, priority, reason, path …)."""
        return await self.memory.read("audit/open_escalations", limit=limit)

    async def goals(self, limit: int) -> list[dict[str, Any]]:
        """Every goal, open ones first, most important first (id, description, priority …)."""
        return await self.memory.read("audit/goals", limit=limit)
