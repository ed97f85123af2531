"""The MCP server's door to the agent's memory: connected on first use, again after a failure.

``nous mcp`` runs as long as its client does, and Neo4j may be down when it
starts or go away while it runs. So the server never connects at start:
each tool asks the :class:`MemoryGate` for the memory, which connects the
way every ``nous`` subcommand does (:func:`scheduler.compose.connect.connected`:
the running Neo4j, never a new one), and a tool whose Neo4j is gone drops
the connection so that the next call tries again. Failures come out as
:class:`MemoryUnavailable`, whose message a tool hands back to the model.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import AsyncExitStack

from graph.errors import GraphError, LoginRefusedError, MemoryUnavailableError
from graph.settings import Settings, child_environment
from graph.store.memory import Memory
from scheduler.compose.connect import connected

log = logging.getLogger(__name__)


class MemoryUnavailable(Exception):
    """Nous's memory cannot be reached now; the message says why and what to do."""


class MemoryGate:
    """One agent's memory for a long-running server, (re)connected when a tool needs it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.agent_id = settings.agent_id
        self._memory: Memory | None = None
        self._connection: AsyncExitStack | None = None
        self._lock = asyncio.Lock()
        self.connections = 0
        """Connections made so far: what was built over an older one is built again."""

    async def memory(self) -> Memory:
        """The agent's memory; :class:`MemoryUnavailable` when no Neo4j answers."""
        async with self._lock:
            if self._memory is None:
                self._memory = await self._connect()
            return self._memory

    async def _connect(self) -> Memory:
        connection = AsyncExitStack()
        try:
            parts = await connection.enter_async_context(
                connected(self.settings, child_environment())
            )
        except GraphError as exc:
            await connection.aclose()
            raise MemoryUnavailable(_unavailable(exc)) from None
        self._connection = connection
        self.connections += 1
        log.info("connected to Neo4j at %s as agent %s", parts.endpoint.uri, self.agent_id)
        return parts.memory

    async def failed(self, exc: GraphError) -> MemoryUnavailable | None:
        """After a tool's query failed: drop a lost connection (the next call reconnects).

        Returns the :class:`MemoryUnavailable` to report when Neo4j went away,
        None when the failure was something else (a query error).
        """
        if not isinstance(exc, MemoryUnavailableError):
            return None
        await self.close()
        return MemoryUnavailable(_unavailable(exc))

    async def close(self) -> None:
        """Close the connection, if there is one; safe to call twice."""
        connection, self._connection, self._memory = self._connection, None, None
        if connection is not None:
            try:
                await connection.aclose()
            except Exception as exc:  # a dead connection may fail to close; it is gone anyway
                log.debug("closing the Neo4j driver failed: %s", type(exc).__name__)


def _unavailable(exc: GraphError) -> str:
    if isinstance(exc, LoginRefusedError):
        return (
            f"Nous's memory is unavailable: {exc} Nothing was read or written. This server "
            "read its settings when it started: restart it after fixing them."
        )
    return (
        f"Nous's memory is unavailable: {exc}. Nothing was read or written; start Neo4j "
        "(`nous neo4j start`) and call the tool again."
    )
