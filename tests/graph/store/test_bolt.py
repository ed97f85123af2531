"""The hook's own Bolt client against the real Neo4j: the official driver's rows, clear errors.

A hook working alone reads and writes through :class:`BoltGraphDriver` (one
connection, statements pipelined); everything else keeps the official
driver. The two must give the same rows for every query a hook runs, and
the client must fail as clearly as the driver does.
"""

from __future__ import annotations

import asyncio
import enum
import json
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from graph import runtime
from graph.errors import LoginRefusedError, MemoryQueryError, MemoryUnavailableError
from graph.models import DecisionStatus, Urgency
from graph.server.finder import Neo4jEndpoint
from graph.settings import load_settings
from graph.store.bolt import encode
from graph.store.bolt_driver import BoltGraphDriver, lean_driver
from graph.store.driver import GraphDriver, Row
from graph.store.memory import Memory
from graph.store.queries import QueryLibrary
from scheduler.claude.payload import parse_payload
from scheduler.compose.session import build_session
from tests.scheduler.claude.tcp_relay import Relay
from tests.support.hook_session import EMPTY, Session, hook_settings
from tests.support.recall_seed import SUPPORT_CYPHER, seeding, support_driver


def bolt_driver(endpoint: Neo4jEndpoint, uri: str | None = None, **kw: Any) -> BoltGraphDriver:
    """A (not started) Bolt client on the test Neo4j whose queries are the test-only ones."""
    return BoltGraphDriver(
        uri or endpoint.uri,
        kw.get("user", endpoint.user),
        kw.get("password", endpoint.password),
        database=endpoint.database,
        queries=QueryLibrary(root=SUPPORT_CYPHER),
    )


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


class IntFlagLike(enum.IntEnum):
    """An int subclass as a parameter (PackStream packs it as its int)."""

    TWO = 2


def plain(value: Any) -> Any:
    """A value as both clients must agree on it (a node or relationship by what it holds)."""
    if hasattr(value, "labels") and hasattr(value, "element_id"):
        return ("node", value.element_id, sorted(value.labels), plain(dict(value.items())))
    if hasattr(value, "type") and hasattr(value, "element_id"):
        return ("relationship", value.element_id, value.type, plain(dict(value.items())))
    if callable(getattr(value, "to_native", None)):
        # The official driver leaves neo4j.time values inside a node; the client reads them
        # as it reads any other value (the hook's queries return properties, not nodes).
        value = value.to_native()
    if isinstance(value, datetime | time):
        return (type(value).__name__, value.isoformat(), value.utcoffset())
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return (type(value).__name__, value)


def same_rows(official: list[Row], bolt: list[Row]) -> None:
    assert [plain(r) for r in bolt] == [plain(r) for r in official]


ECHOED = [
    None, True, False, 0, -16, -17, 127, 128, -129, 40_000, -(2**31) - 1, 2**63 - 1, -(2**63),
    1.5, float("-inf"), "", "ä ☃ 𝄞 \x00 ``` SYSTEM:", "x" * 70_000, b"\x00\xff" * 3,
    list(range(300)), {"k": [1, {"deep": None}], "é": "v"},
    datetime(2026, 11, 27, 1, 2, 3, 456789, tzinfo=UTC),
    datetime(2026, 11, 27, 1, 2, 3, tzinfo=timezone(timedelta(hours=-3, minutes=-30))),
    datetime(1969, 7, 20, 20, 17, 40), date(2026, 2, 28),
    # the fast paths of packstream (issue 28): a map of 16+ keys, 16-255 byte strings, a time
    # before 1970 and east of UTC, subclasses of str and int
    {f"key{i}": f"a value of more than sixteen bytes {i}" for i in range(20)},
    datetime(1901, 12, 13, 20, 45, 52, 1, tzinfo=timezone(timedelta(hours=5, minutes=45))),
    DecisionStatus.DECIDED, Urgency.CRITICAL, IntFlagLike.TWO,
]  # fmt: skip


@pytest.mark.parametrize(
    "value", ECHOED, ids=[f"{type(v).__name__}-{i}" for i, v in enumerate(ECHOED)]
)
async def test_a_parameter_comes_back_as_the_official_driver_reads_it(
    clients: tuple[GraphDriver, GraphDriver], value: Any
) -> None:
    official, bolt = clients
    same_rows(
        await official.read("checks/bolt_echo", value=value),
        await bolt.read("checks/bolt_echo", value=value),
    )


async def test_nodes_relationships_and_temporal_values_read_alike(
    clients: tuple[GraphDriver, GraphDriver], agent_id: str
) -> None:
    official, bolt = clients
    at = datetime(2026, 11, 27, 2, 30, 1, 250000, tzinfo=UTC)
    try:
        first = await bolt.write("checks/bolt_values", agent_id=agent_id, at=at)
        await official.write("checks/bolt_forget", agent_id=agent_id)
        again = await official.write("checks/bolt_values", agent_id=agent_id, at=at)
        row, other = first[0], again[0]
        assert dict(row["node"]) == {"agent_id": agent_id, "name": "ä ☃ 𝄞", "at": at}
        assert row["node"].labels == {"BoltCheck"}
        assert row["relationship"].type == "CHECKED" and row["relationship"]["n"] == 2**53 + 1
        # Written twice, so the element ids differ; every value read otherwise alike.
        drop = ("node", "relationship")
        same_rows(
            [{k: v for k, v in other.items() if k not in drop}],
            [{k: v for k, v in row.items() if k not in drop}],
        )
        assert plain(dict(row["node"])) == plain(dict(other["node"]))
        assert row["local_at"] == datetime(2026, 11, 27, 1, 0, 0, 123456)
        assert row["times"][0] == time(12, 34, 56, 789000, tzinfo=timezone(timedelta(hours=2)))
    finally:
        await official.write("checks/bolt_forget", agent_id=agent_id)


async def test_every_read_of_a_hook_session_gives_the_same_rows(
    neo4j_endpoint: Neo4jEndpoint, memory: Memory, tmp_path: Path
) -> None:
    (tmp_path / "plan.md").write_text("# Plan\n")
    async with seeding(neo4j_endpoint, memory) as seeder:
        await seeder.decision(
            "plan.md", outcome_success=False, outcome="stale index", status=DecisionStatus.FAILED
        )
    official = Recording(neo4j_endpoint)
    await official.start()
    bolt = BoltGraphDriver(
        neo4j_endpoint.uri,
        neo4j_endpoint.user,
        neo4j_endpoint.password,
        database=neo4j_endpoint.database,
    )
    await bolt.start()
    try:
        session = build_session(
            Memory(official, memory.agent_id),
            hook_settings(neo4j_endpoint, memory.agent_id),
            tmp_path,
        )
        for event, fields in SESSION:
            raw = json.dumps({"session_id": "bolt-session", "hook_event_name": event, **fields})
            await session.answer(event, parse_payload(raw.encode(), event))
        reads = [(name, params) for mode, name, params in official.calls if mode == "read"]
        assert len({name for name, _ in reads}) >= 10, reads  # the session did read its memory
        for name, params in reads:
            same_rows(await official.read(name, **params), await bolt.read(name, **params))
        assert {name for mode, name, _ in official.calls if mode == "write"}  # and wrote
    finally:
        await bolt.close()
        await official.close()


class Recording(GraphDriver):
    """The official driver, noting every statement a session asks of it."""

    def __init__(self, endpoint: Neo4jEndpoint) -> None:
        super().__init__(endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database)
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    async def read(self, name: str, /, **params: Any) -> list[Row]:
        self.calls.append(("read", name, params))
        return await super().read(name, **params)

    async def write(self, name: str, /, **params: Any) -> list[Row]:
        self.calls.append(("write", name, params))
        return await super().write(name, **params)


BASH: Mapping[str, object] = {"tool_name": "Bash", "tool_input": {"command": "npm publish"}}
SESSION: list[tuple[str, Mapping[str, object]]] = [
    ("SessionStart", {"source": "startup"}),
    ("UserPromptSubmit", {"prompt": "Please fix plan.md and keep its index current"}),
    ("PreToolUse", BASH),
    ("PostToolUseFailure", {**BASH, "error": "npm ERR! code EOTP one-time password"}),
    ("PostToolUse", {**BASH, "tool_response": {"stdout": "ok", "stderr": ""}}),
    ("PreCompact", {"trigger": "manual", "custom_instructions": ""}),
    ("Stop", {"stop_hook_active": False}),
    ("UserPromptSubmit", {"prompt": "And plan.md again"}),
    ("SessionEnd", {"reason": "exit"}),
]


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


@pytest.mark.parametrize(
    ("uri", "lean"),
    [
        ("bolt://127.0.0.1:7687", True),
        ("bolt://localhost", True),
        ("neo4j://127.0.0.1:7687", False),
        ("bolt://127.0.0.1:7687?policy=x", False),
        ("bolt+s://db.example.com:7687", False),
        ("bolt+ssc://db.example.com", False),
        ("neo4j+s://x.databases.neo4j.io", False),
    ],
)
def test_the_hook_speaks_plain_bolt_only(uri: str, lean: bool) -> None:
    assert isinstance(lean_driver(uri, "u", "p"), BoltGraphDriver) is lean


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


class CountingRelay(Relay):
    """A relay that counts the connections made through it."""

    connections = 0

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        await super()._pipe(reader, writer)


async def test_a_hook_working_alone_uses_one_connection(
    neo4j_endpoint: Neo4jEndpoint, memory: Memory, tmp_path: Path
) -> None:
    (tmp_path / "plan.md").write_text("# Plan\n")
    async with seeding(neo4j_endpoint, memory) as seeder:
        await seeder.decision("plan.md", outcome_success=True, outcome="index rebuilt")
    host, port = neo4j_endpoint.uri.removeprefix("bolt://").rsplit(":", 1)
    relay = CountingRelay(host, int(port))
    await relay.start()
    environ = {
        "NOUS_AGENT_ID": memory.agent_id,
        "NEO4J_URI": f"bolt://127.0.0.1:{relay.port}",
        "NEO4J_USER": neo4j_endpoint.user,
        "NEO4J_PASSWORD": neo4j_endpoint.password,
    }
    session = Session(load_settings(EMPTY, environ=environ), tmp_path, "one-connection")
    try:
        for event, fields in SESSION[:2]:  # SessionStart, then a prompt (pre_turn's steps at once)
            before = relay.connections
            answer = await session.hook(event, **fields)
            assert relay.connections - before == 1, event
        assert "index rebuilt" in answer
    finally:
        await relay.cut()


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
