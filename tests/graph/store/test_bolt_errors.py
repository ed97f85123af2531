"""The hook's own Bolt client fails as clearly as the official driver: queries, logins, servers."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from graph import runtime
from graph.errors import LoginRefusedError, MemoryQueryError, MemoryUnavailableError
from graph.server.finder import Neo4jEndpoint
from graph.store.bolt import encode
from graph.store.bolt_driver import BoltGraphDriver
from graph.store.driver import GraphDriver
from graph.store.queries import QueryLibrary
from tests.scheduler.claude.tcp_relay import Relay
from tests.support.bolt import bolt_driver
from tests.support.recall_seed import SUPPORT_CYPHER


async def test_a_failed_statement_names_its_query_and_the_others_in_flight_still_answer(
    clients: tuple[GraphDriver, GraphDriver],
) -> None:
    _official, bolt = clients
    calls = [bolt.read("checks/bolt_echo", value=i) for i in range(3)]
    calls.insert(1, bolt.read("checks/bolt_divide", by=0))
    calls.append(bolt.read("checks/bolt_divide", by=0))
    calls += [bolt.read("checks/bolt_echo", value=i) for i in range(3, 6)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException)]
    assert len(failures) == 2 and all(isinstance(f, MemoryQueryError) for f in failures)
    assert "query checks/bolt_divide: Neo.ClientError.Statement.ArithmeticError" in str(failures[0])
    assert [r[0]["value"] for r in results if isinstance(r, list)] == list(range(6))
    assert await bolt.read("checks/bolt_echo", value="after") == [{"value": "after"}]


async def test_a_refused_login_names_the_settings_and_is_not_tried_again(
    neo4j_endpoint: Neo4jEndpoint, agent_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime, "RUNTIME_BASE", str(tmp_path))  # this test's refusals
    # A user that does not exist: Neo4j's lock-out after failed logins falls on it alone.
    client = bolt_driver(neo4j_endpoint, user=f"nobody-{agent_id}", password="wrong")
    with pytest.raises(LoginRefusedError, match=r"neo4j\.password") as refused:
        await client.start()
    assert "Neo.ClientError.Security.Unauthorized" in str(refused.value)
    assert "wrong" not in str(refused.value)
    with pytest.raises(LoginRefusedError, match="not tried again before"):
        await client.start()


async def test_nothing_listening_is_a_clear_error() -> None:
    client = BoltGraphDriver("bolt://127.0.0.1:9", "neo4j", "x")
    with pytest.raises(MemoryUnavailableError, match=r"bolt://127.0.0.1:9 does not answer"):
        await client.start()


async def test_neo4j_gone_mid_query_fails_every_statement_waiting_clearly(
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    host, port = neo4j_endpoint.uri.removeprefix("bolt://").rsplit(":", 1)
    relay = Relay(host, int(port))
    await relay.start()
    client = bolt_driver(neo4j_endpoint, uri=f"bolt://127.0.0.1:{relay.port}")
    await client.start()
    try:
        slow = [
            asyncio.ensure_future(client.read("checks/bolt_slow", n=30_000_000)) for _ in range(2)
        ]
        await asyncio.sleep(0.3)
        await relay.cut()
        for waiting in slow:
            with pytest.raises(
                MemoryUnavailableError, match=r"query checks/bolt_slow: Neo4j does not answer"
            ):
                await asyncio.wait_for(waiting, 10)
        with pytest.raises(MemoryUnavailableError, match="does not answer"):
            await client.read("checks/bolt_echo", value=1)
    finally:
        await client.close()
        await client.close()  # twice is fine


async def _fake_neo4j(
    answer_after_login: bytes, version: bytes = b"\x00\x00\x04\x05"
) -> asyncio.Server:
    """A server that takes the handshake, accepts any login, then answers with these bytes."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readexactly(20)
            writer.write(version)
            if version != bytes(4):
                success = encode(0x70, {})
                writer.write(success + success)  # HELLO and LOGON
                await reader.read(65536)  # the first statement
                writer.write(answer_after_login)
            await writer.drain()
        finally:
            writer.close()  # then gone
            await writer.wait_closed()

    return await asyncio.start_server(serve, "127.0.0.1", 0)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (b"\x00\x03\xb1\x70", "the connection to Neo4j broke"),  # a message cut short
        (b"\x00\x02\xc9\x00\x00\x00", "the connection to Neo4j broke"),  # not a message
        (encode(0x7E), "Neo4j does not answer"),  # IGNORED, then the server goes away
    ],
    ids=["cut-short", "not-a-message", "gone"],
)
async def test_a_server_that_answers_nonsense_fails_the_statement_clearly(
    answer: bytes, said: str
) -> None:
    server = await _fake_neo4j(answer)
    port = server.sockets[0].getsockname()[1]
    client = BoltGraphDriver(
        f"bolt://127.0.0.1:{port}", "neo4j", "x", queries=QueryLibrary(root=SUPPORT_CYPHER)
    )
    try:
        await client.start()
        with pytest.raises(MemoryUnavailableError, match=said):
            await asyncio.wait_for(client.read("checks/bolt_echo", value=1), 10)
    finally:
        await client.close()
        server.close()


async def test_a_server_without_bolt_5_is_refused_by_name() -> None:
    server = await _fake_neo4j(b"", version=bytes(4))
    port = server.sockets[0].getsockname()[1]
    client = BoltGraphDriver(f"bolt://127.0.0.1:{port}", "neo4j", "x")
    try:
        with pytest.raises(
            MemoryUnavailableError, match=r"speaks no Bolt version from 5\.1 to 5\.4"
        ):
            await client.start()
    finally:
        server.close()


@pytest.mark.parametrize(
    "login_answer",
    [b"", b"\x00\x03\xb1\x70", b"\x00\x02\xc9\x00\x00\x00"],
    ids=["gone", "cut-short", "not-a-message"],
)
async def test_a_server_that_breaks_off_the_login_is_memory_unavailable(
    login_answer: bytes,
) -> None:
    # Too many connections, or a server shutting down: it takes the handshake, then goes
    # away or answers garbage before the login ends. Said as Neo4j not answering, like a
    # refused connection, never as a bare read error.
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readexactly(20)
            writer.write(b"\x00\x00\x04\x05")
            writer.write(login_answer)
            await writer.drain()
        finally:
            writer.close()
            await writer.wait_closed()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = BoltGraphDriver(f"bolt://127.0.0.1:{port}", "neo4j", "x")
    try:
        with pytest.raises(MemoryUnavailableError, match="broke off the login"):
            await asyncio.wait_for(client.start(), 10)
    finally:
        server.close()
