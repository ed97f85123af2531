"""The censor gate with the real CLI: a command that failed twice is denied the third time."""

from __future__ import annotations

from pathlib import Path

from graph.store.memory import Memory
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import run_claude

COMMAND = "echo attempt >> tries.log; cat nope.yaml"


def _attempt(model: AnthropicStub) -> None:
    model.script(
        ModelTurn.tool("Bash", {"command": COMMAND, "description": "read the config"}),
        ModelTurn.text("The config is not there."),
    )


async def test_a_command_that_failed_twice_is_denied_by_its_block_censor(
    claude_bin: Path,
    hooked: Path,
    cli_env: dict[str, str],
    model: AnthropicStub,
    memory: Memory,
) -> None:
    log = hooked / "tries.log"

    _attempt(model)
    first = run_claude(claude_bin, hooked, cli_env, "Show me the config")
    assert first.code == 0, first.stderr
    assert log.read_text().count("attempt") == 1
    censors = await memory.censors.active_censors()
    assert [c.severity for c in censors] == ["warn"], "the first failure leaves a warn censor"
    assert COMMAND in censors[0].trigger_pattern

    _attempt(model)
    before = len(model.conversation)
    second = run_claude(claude_bin, hooked, cli_env, "Show me the config again")
    assert second.code == 0, second.stderr
    assert log.read_text().count("attempt") == 2, "a warn censor never denies"
    warned = model.conversation[before + 1 :]
    assert warned and "a Nous censor warns about this call" in warned[0].text()
    censors = await memory.censors.active_censors()
    assert [c.severity for c in censors] == ["block"], "the same failure again blocks"
    assert censors[0].fire_count == 2

    _attempt(model)
    before = len(model.conversation)
    third = run_claude(claude_bin, hooked, cli_env, "Once more: show me the config")
    assert third.code == 0, third.stderr
    assert log.read_text().count("attempt") == 2, "the denied command must never run"
    answered = model.conversation[before + 1 :]
    assert answered, "the model never saw the tool's answer"
    results = answered[0].tool_results()
    assert results, answered[0].text()[-3000:]
    assert results[-1].get("is_error") is True
    denial = str(results[-1].get("content"))
    assert f"Nous censor {censors[0].id} blocks this call" in denial
    assert censors[0].reason in denial
    assert [c.severity for c in await memory.censors.active_censors()] == ["block"]
