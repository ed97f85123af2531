"""Issue 27 with the real CLI: SessionStart names Nous's tools; PreCompact keeps the session."""

from __future__ import annotations

from pathlib import Path

from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from scheduler.claude.events import MCP_TOOLS
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import run_claude
from tests.support.graph_checks import open_checks

COMMAND = "cat deploy/missing-release-notes.md"
KEPT = "Nous, this project's memory, kept this session's state"


async def test_compaction_keeps_the_session_in_its_episode_and_says_so(
    claude_bin: Path,
    hooked: Path,
    cli_env: dict[str, str],
    model: AnthropicStub,
    memory: Memory,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    model.script(
        ModelTurn.tool("Bash", {"command": COMMAND, "description": "read the notes"}),
        ModelTurn.text("The release notes are missing."),
    )
    first = run_claude(claude_bin, hooked, cli_env, "Prepare the release of version 2.4")
    assert first.code == 0, first.stderr
    opening = model.conversation[0].text()
    for name, what in MCP_TOOLS:
        assert f"`{name}`: {what}" in opening, "SessionStart names each tool and its use"

    before = len(model.requests)
    compacted = run_claude(
        claude_bin, hooked, cli_env, "/compact", extra=("--resume", first.session_id)
    )
    assert compacted.code == 0, compacted.stderr
    asked = "\n".join(r.text() for r in model.requests[before:] if isinstance(r.body, dict))
    assert KEPT in asked, "the compaction was told what Nous keeps"

    # `claude -p` ends its session (SessionEnd), and the resumed run starts another episode.
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        episodes = await checks.session_episodes(first.session_id)
    [kept] = [e for e in episodes if e.get("compactions")]
    assert kept["compactions"] == 1
    assert "Prepare the release of version 2.4" in kept["kept_task"]
    assert any(COMMAND in lesson for lesson in kept["lessons"]), kept["lessons"]
