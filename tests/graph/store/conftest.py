"""Fixtures of the store tests: the official driver and the hook's Bolt client, side by side."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from graph.server.finder import Neo4jEndpoint
from graph.store.driver import GraphDriver
from tests.support.bolt import bolt_driver
from tests.support.recall_seed import support_driver


@pytest.fixture
async def clients(neo4j_endpoint: Neo4jEndpoint) -> AsyncIterator[tuple[GraphDriver, GraphDriver]]:
    """The official driver and the Bolt client, both started, on the test-only queries."""
    official = support_driver(neo4j_endpoint, own_connections=0)
    bolt = bolt_driver(neo4j_endpoint)
    await official.start()
    await bolt.start()
    yield official, bolt
    await bolt.close()
    await official.close()
