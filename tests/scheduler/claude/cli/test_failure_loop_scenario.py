"""Issue 27 with the real CLI: a call that failed twice in one turn is denied the third time.

The same failing command twice in one turn, then a third time in the same turn (written
with other spacing and quoting) and in the next session: denied both times, never run. A
different command with the same first 40 characters is not denied.
"""

from __future__ import annotations

from pathlib import Path

from graph.store.memory import Memory
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import run_claude

COMMAND = "echo attempt >> tries.log; cat release/missing-credentials.yaml"
# The same call as the model might retype it: other spacing and quoting.
RETYPED = "echo attempt  >> 'tries.log';   cat \"release/missing-credentials.yaml\""
# Another call: the same first 40 characters (the old gate's prefix), then something else.
OTHER = COMMAND[:40] + "issing-notes.md 2>/dev/null; echo other >> other.log"
DENIED = "blocks this call"


def _bash(command: str, description: str) -> ModelTurn:
    return ModelTurn.tool("Bash", {"command": command, "description": description})


def _result(model: AnthropicStub, request: int) -> dict[str, object]:
    """The newest tool result the model was sent in its ``request``-th conversation request."""
    results = model.conversation[request].tool_results()
    assert results, model.conversation[request].text()[-3000:]
    return results[-1]


async def test_a_loop_inside_one_turn_is_stopped_at_the_third_call(
    claude_bin: Path,
    hooked: Path,
    cli_env: dict[str, str],
    model: AnthropicStub,
    memory: Memory,
) -> None:
    assert OTHER[:40] == COMMAND[:40] and OTHER != COMMAND
    tries = hooked / "tries.log"
    (hooked / "release").mkdir()

    model.script(
        _bash(COMMAND, "publish the release"),
        _bash(COMMAND, "try the release again"),
        _bash(RETYPED, "one more time"),
        _bash(OTHER, "read the notes instead"),
        ModelTurn.text("The credentials are missing."),
    )
    before = len(model.conversation)
    first = run_claude(claude_bin, hooked, cli_env, "Publish the release")
    assert first.code == 0, first.stderr
    assert "No such file" in str(_result(model, before + 1).get("content"))
    assert "No such file" in str(_result(model, before + 2).get("content"))
    denied = _result(model, before + 3)
    assert denied.get("is_error") is True
    assert DENIED in str(denied.get("content")), "the third identical call, same turn"
    other = _result(model, before + 4)
    assert DENIED not in str(other.get("content")), "another call with the same start runs"
    assert (hooked / "other.log").read_text().count("other") == 1
    # Two runs of the failing call and one of the other; the retyped third never ran.
    assert tries.read_text().count("attempt") == 3

    censors = [
        c
        for c in await memory.censors.active_censors()
        if "missing-credentials" in c.trigger_pattern
    ]
    assert [c.severity for c in censors] == ["block"], "two failures in one turn make a block"
    assert COMMAND in censors[0].trigger_pattern, "the whole command, not 40 characters"

    model.script(_bash(COMMAND, "publish it"), ModelTurn.text("Still blocked."))
    before = len(model.conversation)
    second = run_claude(claude_bin, hooked, cli_env, "Publish the release now")
    assert second.code == 0, second.stderr
    denied = _result(model, before + 1)
    assert denied.get("is_error") is True
    assert f"Nous censor {censors[0].id} {DENIED}" in str(denied.get("content"))
    assert tries.read_text().count("attempt") == 3, "denied in the next session: never run"
