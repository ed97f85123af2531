"""Reaching the memory: find Neo4j, open the driver, apply the schema.

The daemon (:func:`open_graph`, its driver's close on the daemon's exit
stack) and the short-lived processes (:func:`connected`: ``nous``
subcommands, ``nous rsi``, the MCP server) reach Neo4j the same way.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from cognition.llm import LLMClient
from graph.server.finder import Neo4jEndpoint, find_or_start
from graph.settings import Settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.migrate import apply_migrations


@dataclass
class Connected:
    """What a short-lived process (a ``nous`` subcommand) gets: the memory, and the LLM client."""

    settings: Settings
    endpoint: Neo4jEndpoint
    memory: Memory
    llm: LLMClient | None
    root: Path


async def open_graph(
    stack: AsyncExitStack,
    settings: Settings,
    environ: Mapping[str, str],
    *,
    start_neo4j: bool = True,
    migrate: bool = True,
) -> tuple[Neo4jEndpoint, GraphDriver]:
    """Find Neo4j (start one with ``start_neo4j``), open the driver, apply the schema (``migrate``).

    The driver's close goes on ``stack``. Raises
    :class:`~graph.errors.GraphError` when Neo4j cannot be found or reached.
    """
    endpoint = await asyncio.to_thread(
        find_or_start, settings.neo4j, allow_start=start_neo4j, environ=environ
    )
    driver = GraphDriver(endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database)
    stack.push_async_callback(driver.close)  # safe before the start, and twice
    await driver.start()
    if migrate:
        await apply_migrations(driver)
    return endpoint, driver


@asynccontextmanager
async def connected(
    settings: Settings,
    environ: Mapping[str, str],
    *,
    start_neo4j: bool = False,
    migrate: bool = False,
    llm: bool = False,
) -> AsyncIterator[Connected]:
    """Find Neo4j (start one with ``start_neo4j``), open the memory; close it all after.

    ``migrate`` applies the schema first (as the daemon does); ``llm`` opens
    the LLM client. Raises :class:`~graph.errors.GraphError` when Neo4j
    cannot be found or reached.
    """
    async with AsyncExitStack() as stack:
        endpoint, driver = await open_graph(
            stack, settings, environ, start_neo4j=start_neo4j, migrate=migrate
        )
        client = LLMClient(settings.llm) if llm else None
        if client is not None:
            await client.start()
            stack.push_async_callback(client.close)
        root = settings.watch.root.expanduser().resolve()
        yield Connected(settings, endpoint, Memory(driver, settings.agent_id), client, root)
