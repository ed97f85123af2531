"""Running ``nous`` in the test process against the test Neo4j, output captured."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from scheduler.cli import main
from tests.support.recall_seed import Seeder, seeding

EMPTY = Path(__file__).resolve().parents[2] / "support" / "empty.yaml"


@dataclass
class Result:
    """What one ``nous`` command did."""

    code: int
    out: str
    err: str


Nous = Callable[..., Awaitable[Result]]


@pytest.fixture
def nous(
    neo4j_in_environ: None,
    agent_id: str,
    capsys: pytest.CaptureFixture[str],
) -> Nous:
    """``await nous("escalations", "show", ID)``: the command for the test's agent."""

    async def run(*argv: str) -> Result:
        capsys.readouterr()
        args = [*argv, "--config", str(EMPTY), "--agent-id", agent_id]
        # asyncio.run inside the command needs a thread without a running loop.
        code = await asyncio.to_thread(main, args)
        out, err = capsys.readouterr()
        return Result(code, out, err)

    return run


@pytest.fixture
async def seeder(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    """Fixture writes for the test's agent."""
    async with seeding(neo4j_endpoint, memory) as instance:
        yield instance
