"""The hook's own Bolt client against the real Neo4j: the official driver's rows, one connection.

A hook working alone reads and writes through :class:`BoltGraphDriver` (one
connection, statements pipelined); everything else keeps the official
driver. The two must give the same rows for every query a hook runs (how
the client fails is in ``test_bolt_errors.py``).
"""

from __future__ import annotations

import asyncio
import enum
import json
from collections.abc import Mapping
from datetime import UTC, date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from graph.models import DecisionStatus, Urgency
from graph.server.finder import Neo4jEndpoint
from graph.settings import load_settings
from graph.store.bolt_driver import BoltGraphDriver, lean_driver
from graph.store.driver import GraphDriver, Row
from graph.store.memory import Memory
from scheduler.claude.payload import parse_payload
from scheduler.compose.session import build_session
from tests.scheduler.claude.tcp_relay import Relay
from tests.support.hook_session import EMPTY, Session, hook_settings
from tests.support.recall_seed import seeding


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
