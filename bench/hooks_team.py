"""``bench.hooks``' team arm: a real ``nous mcp --http`` over the bench's memory, and a token.

The server runs as a developer's team server would (its own process, the
database's credentials in its environment, the bench's root as its watched
folder and working directory, embeddings off as a hook's own path has them);
the hooks get only its address and a token file (:func:`team_env`), no
database credentials, so each one goes through the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

from graph.models import new_id, utc_now
from graph.server.finder import Neo4jEndpoint
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from scheduler.claude.tokens import new_token, token_hash

START_S = 60.0
NOUS = Path(sys.executable).parent / "nous"


@contextlib.asynccontextmanager
async def team_server(
    endpoint: Neo4jEndpoint, driver: GraphDriver, agent_id: str, root: Path
) -> AsyncIterator[dict[str, str]]:
    """A team server for ``agent_id`` on a free port until the block ends; yields the hooks'
    environment (the server's address, a token file; no Neo4j). The token is revoked after."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    env = {
        "PATH": os.environ.get("PATH", ""),
        "NEO4J_URI": endpoint.uri,
        "NEO4J_USER": endpoint.user,
        "NEO4J_PASSWORD": endpoint.password,
        "NOUS_EMBEDDINGS__PROVIDER": "off",
        "NOUS_HISTORY__ENABLED": "false",
        "NOUS_LOG_LEVEL": "WARNING",
    }
    token = new_token()
    name = f"bench-{new_id().lower()}"
    store = Memory(driver, agent_id).tokens  # the team's tokens: every agent's
    await store.create(new_id(), name, agent_id, token_hash(token), utc_now())
    token_file = root / f".{name}.token"  # gone with the bench's folder
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    command = [str(NOUS), "mcp", "--http", "--port", str(port)]
    server = await asyncio.create_subprocess_exec(
        *command, env=env, cwd=root, stdout=asyncio.subprocess.DEVNULL
    )
    try:
        await _listening(server, port)
        yield {
            "PATH": env["PATH"],
            "NOUS_CLAUDE__TEAM_URL": f"http://127.0.0.1:{port}",
            "NOUS_CLAUDE__TEAM_TOKEN_FILE": str(token_file),
        }
    finally:
        server.send_signal(signal.SIGTERM)
        await server.wait()
        token_file.unlink()
        await store.revoke(name, utc_now())


async def _listening(server: asyncio.subprocess.Process, port: int) -> None:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if server.returncode is not None:
            raise RuntimeError(f"the team server exited {server.returncode}")
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise RuntimeError(f"the team server did not listen within {START_S:g} s")
