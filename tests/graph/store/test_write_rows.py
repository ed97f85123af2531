"""GraphDriver.write_rows: a failing chunk is raised only once every other chunk has ended."""

from __future__ import annotations

import asyncio

import pytest

from graph.errors import MemoryQueryError
from graph.models import new_id
from graph.server.finder import Neo4jEndpoint
from tests.support.recall_seed import support_driver


async def test_the_error_comes_after_the_other_chunks_have_written(
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    driver = support_driver(neo4j_endpoint)
    await driver.start()
    agent = f"test-{new_id().lower()}"
    # The first chunk fails at once (1 / 0); the two after it write 2,000 nodes between them.
    rows = [{"divisor": 0}] + [{"divisor": 1}] * 2999
    try:
        with pytest.raises(MemoryQueryError, match="by zero"):
            await driver.write_rows(
                "seed/chunk_rows", rows, batch_size=1000, concurrency=2, agent_id=agent
            )
        at_the_error = (await driver.read("checks/chunk_probes", agent_id=agent))[0]["count"]
        await asyncio.sleep(1.0)
        later = (await driver.read("checks/chunk_probes", agent_id=agent))[0]["count"]
        assert at_the_error == later == 2000
    finally:
        await driver.write("checks/forget_chunk_probes", agent_id=agent)
        await driver.close()
