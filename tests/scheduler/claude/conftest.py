"""Fixtures for ``nous mcp`` and the hook socket: project folders, a client, seeded memory."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Protocol

import pytest
from mcp import ClientSession

from graph.models import new_id
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.conftest import REPO
from tests.scheduler.claude.mcp_client import EMPTY, mcp_session, server_command
from tests.scheduler.claude.mcp_http_client import TeamServer, server_env, team_server
from tests.support.recall_seed import Seeder, seeding


@pytest.fixture
def root() -> Iterator[Path]:
    """A project for the hook socket's tests, with a short path (a socket's address is short)."""
    folder = Path(tempfile.mkdtemp(prefix="nh-", dir="/tmp"))
    (folder / "plan.md").write_text("# Plan\n")
    yield folder
    shutil.rmtree(folder)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The watched root the server runs in (its working directory)."""
    root = tmp_path / "project"
    (root / "knowledge").mkdir(parents=True)
    (root / "knowledge" / "notes.md").write_text("# Notes\n")
    return root


class Opener(Protocol):
    """Opens a client session with ``nous mcp``."""

    def __call__(
        self, *, config: Path = EMPTY, env: Mapping[str, str] | None = None
    ) -> AbstractAsyncContextManager[ClientSession]: ...


@pytest.fixture
def nous_mcp(neo4j_env: dict[str, str], agent_id: str, project: Path, tmp_path: Path) -> Opener:
    """``async with nous_mcp() as session``: ``nous mcp`` for the test's agent, on the test Neo4j.

    Opened inside the test, not as a fixture: the client's task group must be
    entered and left by the same task. ``config`` and ``env`` replace the
    settings file and the environment; the server's stderr goes to ``mcp.err``.
    """

    def open_session(
        *, config: Path = EMPTY, env: Mapping[str, str] | None = None
    ) -> AbstractAsyncContextManager[ClientSession]:
        command = server_command(agent_id, config)
        return mcp_session(command, env or neo4j_env, project, tmp_path / "mcp.err")

    return open_session


@pytest.fixture
async def seeder(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    """Fixture writes for the test's agent."""
    async with seeding(neo4j_endpoint, memory) as instance:
        yield instance


@pytest.fixture(scope="module")
def team(
    neo4j_endpoint: Neo4jEndpoint, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TeamServer]:
    """One ``nous mcp --http`` for a test module (each test makes its own agents and tokens)."""
    folder = tmp_path_factory.mktemp("team")
    (folder / "project" / "knowledge").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NOUS_")}
    env.update(
        NEO4J_URI=neo4j_endpoint.uri,
        NEO4J_USER=neo4j_endpoint.user,
        NEO4J_PASSWORD=neo4j_endpoint.password,
        PYTHONPATH=str(REPO),
        NOUS_PROJECT=f"team-{new_id()}",  # its shared decisions are this module's alone
    )
    with team_server(server_env(env), folder / "project", folder / "server.err") as server:
        yield server
