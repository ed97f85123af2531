"""The real Claude Code CLI: a rule the model stated in one session reaches it in the next."""

from __future__ import annotations

from pathlib import Path

from graph.store.memory import Memory
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import run_claude

RULE = "RETRY_MAX_ATTEMPTS should be exactly 7; 8 trips the limiter's rate-limit window."


async def test_a_rule_agreed_in_a_session_is_quoted_to_the_next_one(
    claude_bin: Path, hooked: Path, cli_env: dict[str, str], model: AnthropicStub, memory: Memory
) -> None:
    model.script(ModelTurn.text(f"I checked the limiter logs. {RULE} I'll note it in retry.py."))
    first = run_claude(claude_bin, hooked, cli_env, "5 is leaving retries on the table, right?")
    assert first.code == 0, first.stderr
    await memory.await_text_indexes()

    model.script(ModelTurn.text("Restored."))
    second = run_claude(
        claude_bin,
        hooked,
        cli_env,
        "The retrier crosses the rate-limit window, restore the intended attempt budget",
    )

    assert second.code == 0, second.stderr
    shown = model.conversation[-1].text()
    marker = "UserPromptSubmit hook additional context"
    assert marker in shown, "the UserPromptSubmit hook added nothing"
    added = shown[shown.index(marker) :]
    quoted = added.index(RULE)  # the request's JSON escapes the quotes around it
    assert added[quoted + len(RULE) :].lstrip('\\"').startswith(" (agreed in a session on "), added
    assert added.index("Decisions in force") < added.index(RULE)
