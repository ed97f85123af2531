"""The MCP server's door to the agent's memory: connected on first use, again after a failure.

``nous mcp`` runs as long as its client does, and Neo4j may be down when it
starts or go away while it runs. So the server never connects at start:
each tool asks the :class:`MemoryGate` for the memory, which finds the
running Neo4j (never starting one, like every ``nous`` subcommand), and a
tool whose Neo4j is gone drops the connection so that the next call tries
again. Failures come out as :class:`MemoryUnavailable`, whose message a
tool hands back to the model as it is.
"""

from __future__ import annotations

import asyncio
import logging

from graph.errors import GraphError, MemoryUnavailableError
from graph.server.finder import find_or_start
from graph.settings import Neo4jSettings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory

log = logging.getLogger(__name__)


class MemoryUnavailable(Exception):
    """Nous's memory cannot be reached now; the message says why and what to do."""


class MemoryGate:
    """One agent's memory for a long-running server, (re)connected when a tool needs it."""

    def __init__(self, settings: Neo4jSettings, agent_id: str) -> None:
        self.settings = settings
        self.agent_id = agent_id
        self._driver: GraphDriver | None = None
        self._lock = asyncio.Lock()

    async def memory(self) -> Memory:
        """The agent's memory; :class:`MemoryUnavailable` when no Neo4j answers."""
        async with self._lock:
            if self._driver is None:
                self._driver = await self._connect()
            return Memory(self._driver, self.agent_id)

    async def _connect(self) -> GraphDriver:
        try:
            # The finder probes sockets and may wait on a starting server: keep it off the loop.
            endpoint = await asyncio.to_thread(find_or_start, self.settings, allow_start=False)
        except GraphError as exc:
            raise MemoryUnavailable(_unavailable(exc)) from None
        driver = GraphDriver(
            endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database
        )
        try:
            await driver.start()
        except GraphError as exc:
            raise MemoryUnavailable(_unavailable(exc)) from None
        log.info("connected to Neo4j at %s as agent %s", endpoint.uri, self.agent_id)
        return driver

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
        driver, self._driver = self._driver, None
        if driver is not None:
            try:
                await driver.close()
            except Exception as exc:  # a dead connection may fail to close; it is gone anyway
                log.debug("closing the Neo4j driver failed: %s", type(exc).__name__)


def _unavailable(exc: GraphError) -> str:
    return (
        f"Nous's memory is unavailable: {exc}. Nothing was read or written; start Neo4j "
        "(`nous neo4j start`) and call the tool again."
    )
