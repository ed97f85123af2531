"""Shared fixtures: one real Neo4j for the whole run, a fresh agent id per test.

Neo4j is found the way the daemon finds it (``NEO4J_URI``, a server on
``bolt://localhost:7687``, Docker, or Neo4j Community from Maven Central with
Java 17+); where a Docker engine answers and nothing else is set,
testcontainers starts one. Without any of them a test that needs Neo4j is
skipped on a developer's machine and fails under ``CI=true``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from graph.errors import GraphError
from graph.models import new_id
from graph.server import maven
from graph.server.finder import Neo4jEndpoint, find_or_start, stop
from graph.settings import Settings, load_settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.migrate import apply_migrations
from tests.support import server_lease

REPO = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session", autouse=True)
def user_state(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's state (where `nous templates trust` records) in a folder of the run's own,
    for this process and every daemon it starts: a test never writes ~/.local/state."""
    folder = tmp_path_factory.mktemp("xdg-state")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(folder))
        yield folder / "nous"


def _settings() -> Settings:
    # The repository's own nous.yaml (if a developer keeps one) is not the tests' business.
    return load_settings(REPO / "tests" / "support" / "empty.yaml")


def _docker_engine() -> bool:
    docker = shutil.which("docker")
    if docker is None:
        return False
    try:
        probe = subprocess.run([docker, "info"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def _neo4j_unavailable(reason: str) -> None:
    message = f"no Neo4j for the tests: {reason}"
    if IN_CI:
        pytest.fail(message + " (CI=true: tests that need Neo4j never skip)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def neo4j_endpoint() -> Iterator[Neo4jEndpoint]:
    """A Neo4j answering with the configured credentials, with the schema applied."""
    settings = _settings()
    container = None
    try:
        if settings.neo4j.uri is None and _docker_engine():
            from testcontainers.neo4j import Neo4jContainer

            password = settings.neo4j.password.get_secret_value()
            container = Neo4jContainer("neo4j:5.26-community", password=password)
            container.start()
            settings.neo4j.uri = container.get_connection_url()
        endpoint = find_or_start(settings.neo4j, environ=dict(os.environ))
    except GraphError as exc:
        _neo4j_unavailable(str(exc))
        raise  # unreachable: skip and fail raise
    asyncio.run(_migrate(endpoint))
    # Another test session may find this server and use it: the last one to end stops it.
    leases = server_lease.lease_dir(settings.neo4j.bolt_port)
    server_lease.take(leases, os.getpid())
    yield endpoint
    if container is not None:
        container.stop()
    ours = endpoint.started_here and endpoint.how == "maven"
    home = server_lease.leave(leases, os.getpid(), maven.home_dir(settings.neo4j) if ours else None)
    if home is not None:
        stop(settings.neo4j.model_copy(update={"home": home}))


async def _migrate(endpoint: Neo4jEndpoint) -> None:
    driver = graph_driver(endpoint)
    await driver.start()
    try:
        await apply_migrations(driver)
    finally:
        await driver.close()


def graph_driver(endpoint: Neo4jEndpoint) -> GraphDriver:
    """A new (not started) driver for the test Neo4j."""
    return GraphDriver(endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database)


@pytest.fixture
async def driver(neo4j_endpoint: Neo4jEndpoint) -> AsyncIterator[GraphDriver]:
    """A started driver, closed after the test."""
    instance = graph_driver(neo4j_endpoint)
    await instance.start()
    yield instance
    await instance.close()


@pytest.fixture
def agent_id() -> str:
    """A fresh agent id: each test sees only its own part of the graph."""
    return f"test-{new_id().lower()}"


@pytest.fixture
async def memory(driver: GraphDriver, agent_id: str) -> AsyncIterator[Memory]:
    """The memory of a fresh agent, forgotten after the test."""
    instance = Memory(driver, agent_id)
    yield instance
    await instance.forget()


@pytest.fixture
def neo4j_in_environ(neo4j_endpoint: Neo4jEndpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's Neo4j in this process's NEO4J_* variables: a benchmark or command finds it
    as the daemon does."""
    monkeypatch.setenv("NEO4J_URI", neo4j_endpoint.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_endpoint.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_endpoint.password)


@pytest.fixture
def neo4j_env(neo4j_endpoint: Neo4jEndpoint) -> dict[str, str]:
    """Environment for a daemon subprocess that should use the test Neo4j."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NOUS_")}
    env.update(
        NEO4J_URI=neo4j_endpoint.uri,
        NEO4J_USER=neo4j_endpoint.user,
        NEO4J_PASSWORD=neo4j_endpoint.password,
        PYTHONPATH=str(REPO),
    )
    return env
