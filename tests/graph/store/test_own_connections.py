"""Single statements over Nous's own Bolt connections (graph.store.bolt_pool), as Neo4j sees them.

On a plain ``bolt://`` address a ``GraphDriver`` runs each single statement,
and each chunk of a batch, on one of a few connections of its own (the client
a hook works alone with, far cheaper on the client's CPU than the official
driver's session), the least busy one; schema and EXPLAIN, and any statement
the own client cannot carry or that failed in a way worth trying again, stay
with the official driver. The rows are the same
(``test_bolt.py`` compares the two clients value by value).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from neo4j.time import DateTime

from graph.errors import MemoryQueryError
from graph.server.finder import Neo4jEndpoint
from graph.store.bolt_pool import USER_AGENT
from graph.store.driver import GraphDriver, own_pool
from tests.support.recall_seed import support_driver


@pytest.fixture
async def checks(neo4j_endpoint: Neo4jEndpoint) -> AsyncIterator[GraphDriver]:
    """A started driver on the test-only queries, with its own connections (the default)."""
    driver = support_driver(neo4j_endpoint)
    await driver.start()
    yield driver
    await driver.close()


async def _agents(driver: GraphDriver, addresses: list[str]) -> dict[str, str]:
    """How each of ``addresses`` introduced itself to Neo4j (from its list of connections)."""
    rows = await driver.read("checks/connections")
    return {r["client_address"]: r["user_agent"] for r in rows if r["client_address"] in addresses}


async def test_a_statement_runs_on_a_connection_of_nous_own(checks: GraphDriver) -> None:
    assert await checks.read("checks/bolt_echo", value=7) == [{"value": 7}]
    addresses = checks.own_addresses
    assert len(addresses) == 1
    assert await _agents(checks, addresses) == {addresses[0]: USER_AGENT}


async def test_statements_in_flight_together_go_on_separate_connections(
    checks: GraphDriver,
) -> None:
    # Decisions side by side: the server works on both at once, as on the driver's pool.
    await checks.read("checks/bolt_echo", value=0)  # one connection open, idle
    slow = [checks.read("checks/bolt_slow", n=3_000_000) for _ in range(3)]
    totals = await asyncio.gather(*slow)
    assert len({r[0]["total"] for r in totals}) == 1
    addresses = checks.own_addresses
    assert len(addresses) == 3
    assert set((await _agents(checks, addresses)).values()) == {USER_AGENT}
    # One at a time, the idle connections are used again: no fourth is opened.
    for _ in range(5):
        await checks.read("checks/bolt_echo", value=1)
    assert sorted(checks.own_addresses) == sorted(addresses)


async def test_no_more_connections_than_the_setting(neo4j_endpoint: Neo4jEndpoint) -> None:
    driver = support_driver(neo4j_endpoint, own_connections=2)
    await driver.start()
    try:
        rows = await asyncio.gather(*(driver.read("checks/bolt_echo", value=i) for i in range(9)))
        assert [r[0]["value"] for r in rows] == list(range(9))
        assert len(driver.own_addresses) == 2
    finally:
        await driver.close()
    assert driver.own_addresses == []


async def test_none_of_its_own_when_told_so_or_routed(neo4j_endpoint: Neo4jEndpoint) -> None:
    driver = support_driver(neo4j_endpoint, own_connections=0)
    await driver.start()
    try:
        assert await driver.read("checks/bolt_echo", value="x") == [{"value": "x"}]
        assert driver.own_addresses == []
    finally:
        await driver.close()
    assert own_pool("neo4j://127.0.0.1:7687", "u", "p", 4) is None
    assert own_pool("bolt+s://db.example:7687", "u", "p", 4) is None
    assert own_pool("bolt://127.0.0.1", "u", "p", 4) is not None


async def test_an_error_names_the_query_and_the_connection_goes_on(checks: GraphDriver) -> None:
    with pytest.raises(
        MemoryQueryError, match=r"query checks/bolt_divide: Neo.ClientError.Statement.Arithmetic"
    ):
        await checks.read("checks/bolt_divide", by=0)
    assert await checks.read("checks/bolt_divide", by=1) == [{"quotient": 1}]
    assert len(checks.own_addresses) == 1


async def test_a_value_its_own_client_cannot_send_goes_the_official_way(
    checks: GraphDriver,
) -> None:
    # A neo4j.time value is the official driver's own type: it packs it, this client does not.
    at = DateTime(2026, 11, 27, 6, 0, 0, 123456789)
    rows = await checks.read("checks/bolt_echo", value=at)
    assert rows[0]["value"].isoformat() == "2026-11-27T06:00:00.123456"


async def test_a_batch_writes_its_chunks_on_connections_of_its_own(
    checks: GraphDriver, agent_id: str
) -> None:
    # Two chunks in flight: one connection each (the client packs one while the server writes).
    rows = [{"divisor": 1}] * 2000
    try:
        await checks.write_rows(
            "seed/chunk_rows", rows, batch_size=1000, concurrency=2, agent_id=agent_id
        )
        assert (await checks.read("checks/chunk_probes", agent_id=agent_id))[0]["count"] == 2000
        assert len(checks.own_addresses) == 2
    finally:
        await checks.write("checks/forget_chunk_probes", agent_id=agent_id)
