"""Round trips to Neo4j per statement: one for a read or a write, and a lost connection survived.

The driver talks to the test Neo4j through a TCP gate that counts what the
client sends: each flight of Bolt messages is one round trip. A statement run
as a managed transaction takes two (BEGIN, RUN and PULL; then COMMIT); the
auto-commit way takes one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit

import pytest

from graph.server.finder import Neo4jEndpoint
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from tests.support.tcp_gate import TcpGate


@pytest.fixture
def gate(neo4j_endpoint: Neo4jEndpoint) -> Iterator[TcpGate]:
    where = urlsplit(neo4j_endpoint.uri)
    with TcpGate(where.hostname or "127.0.0.1", where.port or 7687) as instance:
        yield instance


@pytest.fixture
async def gated(
    neo4j_endpoint: Neo4jEndpoint, gate: TcpGate, agent_id: str
) -> AsyncIterator[Memory]:
    driver = GraphDriver(
        f"bolt://127.0.0.1:{gate.port}",
        neo4j_endpoint.user,
        neo4j_endpoint.password,
        database=neo4j_endpoint.database,
    )
    await driver.start()
    memory = Memory(driver, agent_id)
    try:
        yield memory
    finally:
        await memory.forget()
        await driver.close()


async def _settle_nothing(memory: Memory) -> None:
    # A write statement that matches nothing: the round trips are the same as for any write.
    await memory.write("decide/settle_decision", decision_id="no-such-decision", changes={})


async def test_a_read_or_a_write_is_one_round_trip(gated: Memory, gate: TcpGate) -> None:
    await gated.observation_counts()  # the connection is open and pooled
    await _settle_nothing(gated)
    before = gate.flights
    for _ in range(10):
        await gated.observation_counts()
        await _settle_nothing(gated)
    # 20 statements: 20 flights (a managed transaction per statement would be 40).
    assert gate.flights - before <= 22


async def test_a_dropped_connection_is_retried_not_reported(gated: Memory, gate: TcpGate) -> None:
    await gated.observation_counts()
    gate.shut()  # drops the pooled connection: Neo4j restarted, as the driver sees it
    gate.open()
    assert await gated.observation_counts() == (0, 0)
    await _settle_nothing(gated)
