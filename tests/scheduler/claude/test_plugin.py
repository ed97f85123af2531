"""The plugin's files: its hooks are the table's, its launchers run `nous` or say it is missing."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from scheduler.claude.events import EVENTS, HOOK_EVENTS
from scheduler.claude.init import merge_hooks
from scheduler.claude.plugin import HOOKS_FILE, main, render_hooks
from tests.support.claude_cli import nous_program

REPO = Path(__file__).resolve().parents[3]
PLUGIN = REPO / "plugin"
LAUNCHER = PLUGIN / "scripts" / "nous-hook"
SESSION = "7d1e0c4a-5b2f-4e8a-9c1d-2f3a4b5c6d7e"


def test_the_hooks_file_is_the_one_the_table_makes() -> None:
    # A new event in the table: `python -m scheduler.claude.plugin plugin` writes it here too.
    assert (PLUGIN / HOOKS_FILE).read_text() == render_hooks()


def test_the_plugin_registers_what_init_claude_registers() -> None:
    hooks = json.loads((PLUGIN / HOOKS_FILE).read_text())["hooks"]
    settings: dict[str, object] = {}
    merge_hooks(settings, "nous", 15, remove=False)
    init = settings["hooks"]
    assert isinstance(init, dict) and list(hooks) == list(init) == list(EVENTS)
    for event in EVENTS:
        (ours,) = hooks[event]
        (theirs,) = init[event]
        assert ours.get("matcher") == theirs.get("matcher"), event
        assert ours["hooks"][0]["timeout"] == theirs["hooks"][0]["timeout"], event
        assert ours["hooks"][0]["command"].split()[1] == event
    first = [e.name for e in HOOK_EVENTS if e.first]
    assert [e for e in EVENTS if hooks[e][0]["hooks"][0]["command"].endswith("--first")] == first


def test_the_marketplace_lists_the_plugin_and_its_server_runs_the_launcher() -> None:
    market = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text())
    (plugin,) = market["plugins"]
    assert (plugin["name"], plugin["source"]) == ("nous", "./plugin")
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "nous" and manifest["version"] == plugin["version"]
    servers = json.loads((PLUGIN / ".mcp.json").read_text())["mcpServers"]
    assert servers == {"nous": {"command": "${CLAUDE_PLUGIN_ROOT}/scripts/nous-mcp", "args": []}}
    assert "recall" in (PLUGIN / "skills" / "memory" / "SKILL.md").read_text()


def test_writing_the_hooks_file_needs_a_plugin_folder(tmp_path: Path) -> None:
    assert main([str(tmp_path)]) == 2 and not (tmp_path / HOOKS_FILE).exists()
    (tmp_path / ".claude-plugin").mkdir()
    (tmp_path / ".claude-plugin" / "plugin.json").write_text("{}")
    assert main([str(tmp_path)]) == 0
    assert (tmp_path / HOOKS_FILE).read_text() == render_hooks()


def _launch(
    env: dict[str, str], *args: str, payload: bytes = b"{}"
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(LAUNCHER), *args], input=payload, env=env, capture_output=True, timeout=60, check=False
    )


def test_without_nous_the_first_hook_says_so_in_one_line_and_the_others_nothing(
    tmp_path: Path,
) -> None:
    env = {"PATH": "/usr/bin:/bin", "CLAUDE_PROJECT_DIR": str(tmp_path)}
    first = _launch(env, "SessionStart", "--first", payload=b"x" * 1_000_000)
    assert first.returncode == 0 and first.stderr == b""
    (line,) = first.stdout.decode().splitlines()
    answer = json.loads(line)
    said = answer["hookSpecificOutput"]["additionalContext"]
    assert answer["systemMessage"] == said and "no `nous` program on PATH" in said
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    for event in EVENTS:
        other = _launch(env, event)
        assert (other.returncode, other.stdout, other.stderr) == (0, b"", b""), event
    odd = _launch({**env, "NOUS_BIN": str(tmp_path / "no such nous")}, "PreToolUse")
    assert (odd.returncode, odd.stdout) == (0, b"")


def test_with_nous_the_launcher_runs_it(tmp_path: Path) -> None:
    # `nous hook` refusing an event it does not know: the launcher ran the installed `nous`.
    env = {**os.environ, "NOUS_BIN": str(nous_program()), "CLAUDE_PROJECT_DIR": str(tmp_path)}
    done = _launch(env, "Nope")
    assert done.returncode == 0 and done.stdout == b""
    assert b"invalid choice: 'Nope'" in done.stderr
    on_path = {"PATH": f"{nous_program().parent}:/usr/bin:/bin", "CLAUDE_PROJECT_DIR": "/"}
    assert b"invalid choice" in _launch(on_path, "Nope").stderr
