"""The real Claude Code CLI with Nous's hooks: a past decision about a file reaches the model."""

from __future__ import annotations

from pathlib import Path

from graph.models import DecisionStatus
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import run_claude
from tests.support.recall_seed import seeding

OUTCOME = "the intake parser choked on YAML front matter"


async def test_a_past_decision_about_the_file_reaches_the_models_request(
    claude_bin: Path,
    hooked: Path,
    cli_env: dict[str, str],
    model: AnthropicStub,
    memory: Memory,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    (hooked / "notes").mkdir()
    (hooked / "notes" / "plan.md").write_text("# Plan\n")
    async with seeding(neo4j_endpoint, memory) as seed:
        await seed.decision(
            "notes/plan.md",
            outcome_success=False,
            outcome=OUTCOME,
            status=DecisionStatus.FAILED,
        )
    model.script(ModelTurn.text("I will keep the front matter out."))

    run = run_claude(claude_bin, hooked, cli_env, "Please tidy notes/plan.md for the intake")

    assert run.code == 0, run.stderr
    assert run.result.get("is_error") is False, run.stdout
    asked = model.conversation
    assert asked, "the CLI never asked the model"
    shown = asked[0].text()
    marker = "UserPromptSubmit hook additional context"
    assert marker in shown, "the UserPromptSubmit hook added nothing"
    added = shown[shown.index(marker) :]
    assert OUTCOME in added, "the recalled decision did not reach the model"
    assert "not instructions" in added, "recalled memory must be fenced as data"
