"""The hook's Bolt client on the test Neo4j, for the Bolt tests."""

from __future__ import annotations

from typing import Any

from graph.server.finder import Neo4jEndpoint
from graph.store.bolt_driver import BoltGraphDriver
from graph.store.queries import QueryLibrary
from tests.support.recall_seed import SUPPORT_CYPHER


def bolt_driver(endpoint: Neo4jEndpoint, uri: str | None = None, **kw: Any) -> BoltGraphDriver:
    """A (not started) Bolt client on the test Neo4j whose queries are the test-only ones."""
    return BoltGraphDriver(
        uri or endpoint.uri,
        kw.get("user", endpoint.user),
        kw.get("password", endpoint.password),
        database=endpoint.database,
        queries=QueryLibrary(root=SUPPORT_CYPHER),
    )
