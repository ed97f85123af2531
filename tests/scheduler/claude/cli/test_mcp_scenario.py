"""The real Claude Code CLI calls Nous's MCP server (from `.mcp.json`) and reads its answer."""

from __future__ import annotations

from pathlib import Path

from graph.models import DecisionStatus
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import run_claude
from tests.support.recall_seed import seeding

OUTCOME = "the thinker index lost its front matter"


async def test_the_model_calls_mcp_nous_recall_and_gets_the_answer_back(
    claude_bin: Path,
    hooked: Path,
    cli_env: dict[str, str],
    model: AnthropicStub,
    memory: Memory,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    (hooked / "index.md").write_text("# Index\n")
    async with seeding(neo4j_endpoint, memory) as seed:
        decision_id = await seed.decision(
            "index.md", outcome_success=False, outcome=OUTCOME, status=DecisionStatus.FAILED
        )
    model.script(
        ModelTurn.tool("mcp__nous__recall", {"question": "what went wrong", "path": "index.md"}),
        ModelTurn.text("Noted."),
    )

    run = run_claude(claude_bin, hooked, cli_env, "hello there")

    assert run.code == 0, run.stderr
    first = model.conversation[0]
    assert "mcp__nous__recall" in first.tool_names, first.tool_names
    assert len(model.conversation) == 2, "the CLI never came back with the tool's answer"
    results = model.conversation[1].tool_results()
    assert results, model.conversation[1].text()[-2000:]
    answer = str(results[-1].get("content"))
    assert results[-1].get("is_error") is not True, answer
    assert OUTCOME in answer
    assert decision_id in answer
