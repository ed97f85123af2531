"""A real ``nous mcp --http`` subprocess on 127.0.0.1, and the MCP SDK's client talking to it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from graph.models import new_id, utc_now
from graph.store.driver import GraphDriver
from graph.store.tokens import TokenStore
from scheduler.claude.tokens import new_token, token_hash
from tests.scheduler.claude.mcp_client import EMPTY

START_S = 60.0  # the server imports the SDK and the tools on a shared, busy machine


@dataclass(frozen=True)
class TeamServer:
    """A running team server: where it listens, and its stderr."""

    url: str
    host: str
    port: int
    errlog: Path
    pid: int
    project: str
    """Whose shared decisions its tools quote (``NOUS_PROJECT``, or the folder's name)."""


def free_port() -> int:
    """A port nothing listens on now (the OS's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def team_server(
    env: Mapping[str, str], cwd: Path, errlog: Path, *extra: str, config: Path = EMPTY
) -> Iterator[TeamServer]:
    """``nous mcp --http`` on a free port, until the block ends (then SIGTERM, and wait)."""
    port = free_port()
    command = [sys.executable, "-m", "scheduler.cli", "mcp", "--http", "--port", str(port)]
    command += ["--config", str(config), *extra]
    with errlog.open("w") as err:
        process = subprocess.Popen(command, env=dict(env), cwd=cwd, stderr=err, stdout=err)
    try:
        _await_port(process, port, errlog)
        project = env.get("NOUS_PROJECT", cwd.name)
        url = f"http://127.0.0.1:{port}/mcp"
        yield TeamServer(url, "127.0.0.1", port, errlog, process.pid, project)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _await_port(process: subprocess.Popen[bytes], port: int, errlog: Path) -> None:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {errlog.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not listen within {START_S} s: {errlog.read_text()}")


async def make_token(driver: GraphDriver, name: str, agent_id: str) -> str:
    """A live token for ``agent_id`` (as ``nous tokens create`` makes one)."""
    token = new_token()
    made = await TokenStore(driver).create(new_id(), name, agent_id, token_hash(token), utc_now())
    assert made is not None
    return token


@asynccontextmanager
async def team_session(url: str, token: str | None) -> AsyncIterator[ClientSession]:
    """An initialized MCP client session with the team server, sending ``token``."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with (
        create_mcp_http_client(headers=headers) as http,
        streamable_http_client(url, http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def server_env(base: Mapping[str, str]) -> dict[str, str]:
    """``base`` with no embedding model: these tests are about who reads what, not meaning."""
    return {**base, "NOUS_EMBEDDINGS__PROVIDER": "off", "PYTHONUNBUFFERED": "1"}


def alive(pid: int) -> bool:
    """Whether the server process is still there."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
