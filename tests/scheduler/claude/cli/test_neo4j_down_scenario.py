"""With Neo4j stopped, a real Claude Code session with Nous's hooks completes; one line says so."""

from __future__ import annotations

import socket
from pathlib import Path

from graph.server.finder import Neo4jEndpoint
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import run_claude
from tests.support.graph_checks import open_checks


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_the_session_completes_with_one_line_when_neo4j_is_down(
    claude_bin: Path,
    hooked: Path,
    cli_env: dict[str, str],
    model: AnthropicStub,
    agent_id: str,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    cli_env["NEO4J_URI"] = f"bolt://127.0.0.1:{_closed_port()}"
    target = hooked / "hello.txt"
    model.script(
        ModelTurn.tool("Write", {"file_path": str(target), "content": "hello\n"}),
        ModelTurn.tool("Bash", {"command": "cat nope.txt", "description": "check"}),
        ModelTurn.text("Created hello.txt."),
    )

    run = run_claude(claude_bin, hooked, cli_env, "Create the file hello.txt")

    assert run.code == 0, run.stderr
    assert run.result.get("is_error") is False and run.result.get("result") == "Created hello.txt."
    assert target.read_text() == "hello\n"
    assert len(model.conversation) == 3
    for request in model.conversation:
        # The session's first hook says, once, that memory is off and how to fix it; no other.
        assert request.text().count("hook additional context") == 1
        assert "SessionStart hook additional context" in request.text()
        assert "Nous's memory is off for this session" in request.text()
        assert "`nous status`" in request.text()
        assert "hook error" not in request.text()
    async with open_checks(neo4j_endpoint, agent_id) as checks:
        assert await checks.counts() == {}
