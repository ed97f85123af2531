"""The real Claude Code CLI reaches ``nous mcp --http`` with the ``.mcp.json`` the docs give.

``claude mcp list`` connects to each configured server (an MCP ``initialize``),
so it needs no model: with the person's token in ``NOUS_TOKEN`` it connects;
with a made-up one the server refuses it (401) and the CLI says so.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
from pathlib import Path

from graph.models import new_id
from graph.store.memory import Memory
from tests.conftest import REPO
from tests.scheduler.claude.mcp_http_client import TeamServer, make_token
from tests.support.claude_cli import CLI_TIMEOUT_S, claude_env, require_claude

DOCS = REPO / "docs" / "claude-code.md"


def documented_mcp_json() -> dict[str, object]:
    """The ``.mcp.json`` docs/claude-code.md shows for a team server."""
    section = DOCS.read_text().split("## A team server", 1)[1]
    [block] = re.findall(r"```json\n(.*?)```", section.split("\n## ", 1)[0], re.DOTALL)
    parsed: dict[str, object] = json.loads(block)
    return parsed


async def test_claude_code_connects_with_its_token_and_is_refused_without(
    team: TeamServer, memory: Memory, tmp_path: Path
) -> None:
    claude = require_claude()
    token = await make_token(memory.driver, f"frank{memory.agent_id[-8:]}", memory.agent_id)
    config = documented_mcp_json()
    servers = config["mcpServers"]
    assert isinstance(servers, dict)
    servers["nous"]["url"] = team.url  # the documented entry, at the test's server
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (project / ".mcp.json").write_text(json.dumps(config))
    # A person approves a project's servers once; a fresh HOME has to be told.
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text('{"enableAllProjectMcpServers": true}')
    env = claude_env(dict(os.environ), home, "http://127.0.0.1:9")  # no model is asked

    def listed(secret: str) -> str:
        done = subprocess.run(
            [str(claude), "mcp", "list"],
            cwd=project,
            env={**env, "NOUS_TOKEN": secret},
            capture_output=True,
            text=True,
            timeout=CLI_TIMEOUT_S,
            check=False,
        )
        return done.stdout + done.stderr

    connected = await asyncio.to_thread(listed, token)
    assert "Connected" in connected and team.url in connected, connected
    refused = await asyncio.to_thread(listed, "nous_" + new_id())
    assert "401" in refused and "Connected" not in refused, refused
