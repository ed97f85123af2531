"""The plugin pointed at a team server, with the real CLI: its hooks reach Nous through it alone.

The developer's environment holds the team server's address and a token file, and no
database credentials: its ``NEO4J_URI`` names a port nothing listens on, so a hook that
tried Neo4j itself would find nothing. The session still gets the recalled decision in its
prompt's context, the plugin's own MCP server (``nous mcp`` on stdio) answers ``recall``, and
the third identical failing call is denied: all of it answered by the team server (``nous mcp
--http``) for the agent the token names.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from graph.models import DecisionStatus
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.scheduler.claude.mcp_http_client import TeamServer, free_port, make_token
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import claude_env, nous_program, run_claude
from tests.support.recall_seed import seeding

REPO = Path(__file__).resolve().parents[4]
OUTCOME = "the wombat index went stale after the rename"
COMMAND = "echo attempt >> tries.log; cat missing-wombat.yaml"
CONTEXT = "hook additional context"
RECALL = "mcp__plugin_nous_nous__recall"


def _claude(binary: Path, env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [str(binary), "plugin", *args], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)


@pytest.fixture
async def developer(
    claude_bin: Path, tmp_path: Path, team: TeamServer, memory: Memory, model: AnthropicStub
) -> dict[str, str]:
    """A developer's CLI environment: the plugin installed, the team server and a token
    (for the test's agent) set, no Neo4j credentials, and a Neo4j address that answers nothing."""
    token = await make_token(memory.driver, f"dev-{memory.agent_id}", memory.agent_id)
    token_path = tmp_path / "nous-token"
    token_path.write_text(token + "\n")
    token_path.chmod(0o600)
    home = tmp_path / "home"
    home.mkdir()
    base = {k: v for k, v in os.environ.items() if not k.startswith(("NOUS_", "NEO4J_"))}
    env = claude_env(base, home, model.base_url)
    env.update(
        PATH=f"{nous_program().parent}:{env.get('PATH', '/usr/bin:/bin')}",
        NEO4J_URI=f"bolt://127.0.0.1:{free_port()}",  # a tripwire: nothing listens there
        NOUS_CLAUDE__TEAM_URL=f"http://{team.host}:{team.port}",
        NOUS_CLAUDE__TEAM_TOKEN_FILE=str(token_path),
    )
    _claude(claude_bin, env, "marketplace", "add", str(REPO))
    _claude(claude_bin, env, "install", "nous@nous")
    return env


async def test_the_plugins_hooks_reach_nous_through_the_team_server(
    claude_bin: Path,
    project: Path,
    developer: dict[str, str],
    team: TeamServer,
    model: AnthropicStub,
    memory: Memory,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    assert not any(k.startswith("NEO4J_") and k != "NEO4J_URI" for k in developer)
    for root in (project, team.errlog.parent / "project"):  # the developer's and the server's
        (root / "notes").mkdir(exist_ok=True)
        (root / "notes" / "plan.md").write_text("# Plan\n")
    async with seeding(neo4j_endpoint, memory) as seed:
        await seed.decision(
            "notes/plan.md", outcome_success=False, outcome=OUTCOME, status=DecisionStatus.FAILED
        )
    asked = ModelTurn.tool(RECALL, {"question": "what went wrong", "path": "notes/plan.md"})
    calls = [ModelTurn.tool("Bash", {"command": COMMAND, "description": "config"}) for _ in "abc"]
    model.script(asked, *calls, ModelTurn.text("The config is not there."))

    run = run_claude(
        claude_bin,
        project,
        developer,
        "Tidy notes/plan.md, then show the config",
        tools=f"Bash,{RECALL}",
    )

    assert run.code == 0, run.stderr
    first = model.conversation[0].text()
    assert "SessionStart " + CONTEXT in first and "memory is off" not in first
    shown = first[first.index("UserPromptSubmit " + CONTEXT) :]
    assert OUTCOME in shown, "the recalled decision did not come through the team server"
    assert RECALL in model.conversation[0].tool_names, "the plugin's MCP server is up"
    recalled = model.conversation[1].tool_results()[-1]
    assert recalled.get("is_error") is not True and OUTCOME in str(recalled.get("content"))
    assert (project / "tries.log").read_text().count("attempt") == 2, "the third never ran"
    denial = model.conversation[4].tool_results()[-1]
    assert denial.get("is_error") is True and "blocks this call" in str(denial.get("content"))
    assert [c.severity for c in await memory.censors.active_censors()] == ["block"]
    turns = await memory.turns.session_turns(run.session_id)
    assert [t.response for t in turns] == ["The config is not there."], "Stop closed the turn"
