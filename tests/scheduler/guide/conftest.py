"""Fixture writes for the guide's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.support.recall_seed import Seeder, seeding


@pytest.fixture
async def seeder(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    """Fixture writes for the test's agent."""
    async with seeding(neo4j_endpoint, memory) as instance:
        yield instance
