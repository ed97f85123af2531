"""Reads that only tests need (relationships, raw properties, label counts).

The queries live in ``tests/support/cypher/checks``; :func:`open_checks` gives
a :class:`Memory` whose driver loads them, for the agent under test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from graph.server.finder import Neo4jEndpoint
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.queries import QueryLibrary

CHECKS = QueryLibrary(Path(__file__).resolve().parent / "cypher")


class GraphChecks:
    """Test-only reads of one agent's part of the graph."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    async def outgoing(self, node_id: str) -> set[tuple[str, str, str]]:
        """(relationship type, target label, target id) for each outgoing relationship."""
        rows = await self.memory.read("checks/outgoing", id=node_id)
        return {(r["type"], r["label"], r["target"]) for r in rows}

    async def node(self, node_id: str) -> dict[str, Any] | None:
        """A node's properties, or None."""
        rows = await self.memory.read("checks/node", id=node_id)
        return dict(rows[0]["properties"]) if rows else None

    async def counts(self) -> dict[str, int]:
        """Nodes of the agent by label."""
        rows = await self.memory.read("checks/label_counts")
        return {r["label"]: int(r["count"]) for r in rows}

    async def session_episodes(self, session_id: str) -> list[dict[str, Any]]:
        """Every episode of a session (open or ended), oldest first, as properties."""
        rows = await self.memory.read("checks/session_episodes", session_id=session_id)
        return [dict(r["episode"]) for r in rows]


@asynccontextmanager
async def open_checks(endpoint: Neo4jEndpoint, agent_id: str) -> AsyncIterator[GraphChecks]:
    """Checks for ``agent_id`` on their own driver, closed on exit."""
    driver = GraphDriver(
        endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database, queries=CHECKS
    )
    await driver.start()
    try:
        yield GraphChecks(Memory(driver, agent_id))
    finally:
        await driver.close()
