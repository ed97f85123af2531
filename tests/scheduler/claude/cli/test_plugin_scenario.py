"""Nous installed as a Claude Code plugin, with the real CLI, in a project never `nous init`ed.

The repository is the marketplace (`claude plugin marketplace add` of its folder), the plugin
is installed for the test's own HOME (its user scope), and a session in a fresh project reaches
Nous through the plugin's hooks: the recalled decision is in the prompt's context and the third
identical failing call is denied. Uninstalled, the plugin leaves nothing: no Nous hook runs in
the next session, and neither the project nor the user's settings keep a trace of it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from graph.models import DecisionStatus
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import nous_program, run_claude
from tests.support.recall_seed import seeding

REPO = Path(__file__).resolve().parents[4]
OUTCOME = "the intake parser choked on YAML front matter"
COMMAND = "echo attempt >> tries.log; cat nope.yaml"
CONTEXT = "hook additional context"


def _claude(binary: Path, env: dict[str, str], *args: str) -> str:
    command = [str(binary), "plugin", *args]
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


@pytest.fixture
def plugged(claude_bin: Path, cli_env: dict[str, str]) -> dict[str, str]:
    """The CLI's environment with the plugin installed (user scope, the test's HOME) and the
    installed `nous` on PATH, as a user's would be."""
    cli_env["PATH"] = f"{nous_program().parent}:{cli_env.get('PATH', '/usr/bin:/bin')}"
    _claude(claude_bin, cli_env, "marketplace", "add", str(REPO))
    _claude(claude_bin, cli_env, "install", "nous@nous")
    return cli_env


def _settings(env: dict[str, str]) -> dict[str, object]:
    path = Path(env["HOME"]) / ".claude" / "settings.json"
    return json.loads(path.read_text()) if path.exists() else {}


async def test_the_plugin_reaches_nous_and_uninstalls_cleanly(
    claude_bin: Path,
    project: Path,
    plugged: dict[str, str],
    model: AnthropicStub,
    memory: Memory,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    (project / "notes").mkdir()
    (project / "notes" / "plan.md").write_text("# Plan\n")
    async with seeding(neo4j_endpoint, memory) as seed:
        await seed.decision(
            "notes/plan.md", outcome_success=False, outcome=OUTCOME, status=DecisionStatus.FAILED
        )
    calls = [ModelTurn.tool("Bash", {"command": COMMAND, "description": "config"}) for _ in "abc"]
    model.script(*calls, ModelTurn.text("The config is not there."))

    run = run_claude(claude_bin, project, plugged, "Tidy notes/plan.md, then show me the config")

    assert run.code == 0, run.stderr
    first = model.conversation[0].text()
    assert "SessionStart " + CONTEXT in first, "the plugin's SessionStart hook added nothing"
    shown = first[first.index("UserPromptSubmit " + CONTEXT) :]
    assert OUTCOME in shown, "the recalled decision did not reach the model"
    assert (project / "tries.log").read_text().count("attempt") == 2, "the third never ran"
    denial = model.conversation[3].tool_results()[-1]
    assert denial.get("is_error") is True and "blocks this call" in str(denial.get("content"))
    assert [c.severity for c in await memory.censors.active_censors()] == ["block"]
    assert not (project / ".claude").exists() and not (project / ".mcp.json").exists()

    _claude(claude_bin, plugged, "uninstall", "nous@nous")
    before = len(model.conversation)
    model.script(ModelTurn.text("Hello."))
    after = run_claude(claude_bin, project, plugged, "Tidy notes/plan.md")
    assert after.code == 0, after.stderr
    assert CONTEXT not in model.conversation[before].text(), "a Nous hook ran after uninstall"
    assert not (project / ".claude").exists() and not (project / ".mcp.json").exists()
    assert _settings(plugged).get("enabledPlugins") == {}
    installed = Path(plugged["HOME"]) / ".claude" / "plugins" / "installed_plugins.json"
    assert json.loads(installed.read_text())["plugins"] == {}
    # The CLI keeps the uninstalled copy in its cache only until its next clean-up.
    cached = Path(plugged["HOME"]) / ".claude" / "plugins" / "cache" / "nous" / "nous"
    assert all((v / ".orphaned_at").exists() for v in cached.iterdir())


def test_without_nous_installed_the_session_gets_one_line(
    claude_bin: Path, project: Path, plugged: dict[str, str], model: AnthropicStub
) -> None:
    plugged["PATH"] = "/usr/bin:/bin"  # no `nous` anywhere (the CLI is started by its path)
    model.script(ModelTurn.text("Hello."))
    run = run_claude(claude_bin, project, plugged, "Say hello")
    assert run.code == 0, run.stderr
    assert run.result.get("result") == "Hello."
    shown = model.conversation[0].text()
    assert shown.count(CONTEXT) == 1, "one line, from the session's first hook"
    assert "no `nous` program on PATH" in shown and "hook error" not in shown
