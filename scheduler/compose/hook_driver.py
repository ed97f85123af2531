"""A hook's driver: straight to the configured Neo4j, built without pydantic.

Part of the composition root, and the lightest of it: a hook that answers a
tool call (:mod:`scheduler.claude.tool_hooks`) needs this and nothing of the
session (:mod:`scheduler.compose.session`, which builds on it). The driver
goes straight to ``neo4j.uri``, else the local address: a hook never probes
Docker or starts a server, and when nothing answers it gives up at once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from graph.server.address import local_uri
from graph.store.bolt_driver import lean_driver
from graph.store.driver import GraphDriver

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from graph.settings import Settings
    from graph.settings_lean import HookSettings


@asynccontextmanager
async def open_driver(
    settings: Settings | HookSettings, *, lean: bool = False
) -> AsyncIterator[GraphDriver]:
    """A started driver to the configured Neo4j; closed on the way out.

    ``lean``: the hook's own Bolt client, one connection (a plain ``bolt://``
    address; the official driver for anything else), for a process that must start fast.
    """
    neo4j = settings.neo4j
    build = lean_driver if lean else GraphDriver
    driver = build(
        neo4j.uri or local_uri(neo4j),
        neo4j.user,
        neo4j.password.get_secret_value(),
        database=neo4j.database,
    )
    try:
        await driver.start()
        yield driver
    finally:
        await driver.close()
