"""``nous mcp`` on stdio with ``claude.team_url``: the plugin's MCP server, answered by the team
server for the token's agent, with no Neo4j of its own.

The stdio server runs as Claude Code starts the plugin's (a process, the MCP SDK's client on
its stdin and stdout), its environment holding the team server's address, a token file and a
``NEO4J_URI`` where nothing listens. What ``remember`` keeps lands in the token's agent's
memory; a refused token and a server that is down are each the call's error, saying what to
fix.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from graph.models import utc_now
from graph.store.memory import Memory
from graph.store.tokens import TokenStore
from tests.scheduler.claude.mcp_client import EMPTY, TOOLS, call, call_failing, mcp_session
from tests.scheduler.claude.mcp_http_client import TeamServer, free_port, make_token

COMMAND = [sys.executable, "-m", "scheduler.cli", "mcp", "--config", str(EMPTY)]


def _env(url: str, token: str, folder: Path) -> dict[str, str]:
    path = folder / "nous-token"
    path.write_text(token + "\n")
    path.chmod(0o600)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NOUS_", "NEO4J_"))}
    env.update(
        NEO4J_URI=f"bolt://127.0.0.1:{free_port()}",  # a tripwire: nothing listens there
        NOUS_CLAUDE__TEAM_URL=url,
        NOUS_CLAUDE__TEAM_TOKEN_FILE=str(path),
        NOUS_EMBEDDINGS__PROVIDER="off",
    )
    return env


async def test_the_stdio_server_answers_through_the_team_server(
    team: TeamServer, memory: Memory, tmp_path: Path
) -> None:
    name = f"stdio-{memory.agent_id}"
    token = await make_token(memory.driver, name, memory.agent_id)
    env = _env(f"http://{team.host}:{team.port}", token, tmp_path)
    async with mcp_session(COMMAND, env, tmp_path, tmp_path / "mcp.err") as session:
        listed = await session.list_tools()
        assert {t.name for t in listed.tools} == TOOLS
        kept = await call(
            session,
            "remember",
            kind="fact",
            text="The quokka ledger is rebuilt nightly by the wombat job",
            source="docs/ledger.md",
        )
        assert kept.startswith("Remembered fact "), kept
        await memory.await_text_indexes()  # full-text is eventually consistent
        recalled = await call(session, "recall", question="quokka ledger wombat job")
        assert "The quokka ledger is rebuilt nightly" in recalled
        goals = await call(session, "goals")
        assert memory.agent_id in goals, "answered for the token's agent"
        await TokenStore(memory.driver).revoke(name, utc_now())
        refused = await call_failing(session, "goals")
        assert "refused the token" in refused and "nous tokens create" in refused
        assert token not in refused
    assert token not in (tmp_path / "mcp.err").read_text()


async def test_a_down_team_server_is_the_calls_error(memory: Memory, tmp_path: Path) -> None:
    env = _env(f"http://127.0.0.1:{free_port()}", "nous_" + "x" * 43, tmp_path)
    async with mcp_session(COMMAND, env, tmp_path, tmp_path / "mcp.err") as session:
        said = await call_failing(session, "recall", question="the quokka ledger")
    assert "no team server answers at" in said and "nous mcp --http" in said
