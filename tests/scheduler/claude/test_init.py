"""``nous init claude``: merged into a user's own files, idempotent, and removed exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scheduler.claude.events import EVENTS
from scheduler.claude.init import init_claude, is_ours
from scheduler.cli import main

USER_HOOK = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}
USER_SERVER = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}


def _user_files(root: Path) -> None:
    (root / ".claude").mkdir()
    settings = {"model": "opus", "hooks": {"PreToolUse": [USER_HOOK]}}
    (root / ".claude" / "settings.json").write_text(json.dumps(settings))
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"memory": USER_SERVER}}))


def _read(path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads(path.read_text())


def test_init_merges_is_idempotent_and_remove_restores_the_users_files(tmp_path: Path) -> None:
    _user_files(tmp_path)
    before = {p: _read(p) for p in (tmp_path / ".claude" / "settings.json", tmp_path / ".mcp.json")}

    changes = init_claude(tmp_path, timeout_s=8.0)

    assert len(changes) == len(EVENTS) + 1
    settings = _read(tmp_path / ".claude" / "settings.json")
    # Issue 27: failures count as they happen, compaction keeps the session.
    assert {"PostToolUseFailure", "PreCompact", "SessionStart"} <= set(settings["hooks"])
    assert settings["model"] == "opus"
    assert settings["hooks"]["PreToolUse"][0] == USER_HOOK
    for event in EVENTS:
        ours = [g for g in settings["hooks"][event] if is_ours(g["hooks"][0]["command"])]
        assert len(ours) == 1
        hook = ours[0]["hooks"][0]
        # 8 s is the hook's own limit alone; one the daemon answers waits up to 15 s.
        assert f" hook {event} " in hook["command"] and hook["timeout"] == 17
    servers = _read(tmp_path / ".mcp.json")["mcpServers"]
    assert servers["memory"] == USER_SERVER
    assert servers["nous"]["args"] == ["mcp"]

    assert init_claude(tmp_path, timeout_s=8.0) == [], "a second run changes nothing"

    removed = init_claude(tmp_path, timeout_s=8.0, remove=True)
    assert len(removed) == len(EVENTS) + 1
    assert {p: _read(p) for p in before} == before


def test_claude_codes_timeout_covers_a_longer_hook_timeout(tmp_path: Path) -> None:
    init_claude(tmp_path, timeout_s=40.5)
    groups = _read(tmp_path / ".claude" / "settings.json")["hooks"]["Stop"]
    assert [g["hooks"][0]["timeout"] for g in groups] == [43]


def test_init_claude_command_prints_what_it_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "claude", "--root", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "added hook UserPromptSubmit" in printed and "added MCP server nous" in printed
    assert main(["init", "claude", "--root", str(tmp_path)]) == 0
    assert "nothing to change" in capsys.readouterr().out
    assert main(["init", "claude", "--root", str(tmp_path), "--remove"]) == 0
    assert "removed hook Stop" in capsys.readouterr().out
    assert not (tmp_path / ".mcp.json").read_text().count("nous")


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        (".claude/settings.json", "{not json", "not valid JSON"),
        (".claude/settings.json", "[]", "JSON object"),
        (".claude/settings.json", '{"hooks": []}', "'hooks' is not an object"),
        (".mcp.json", '{"mcpServers": {"nous": {"command": "other"}}}', "someone else's"),
    ],
)
def test_a_file_that_cannot_be_merged_is_named_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, said: str
) -> None:
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    assert main(["init", "claude", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and said in err
    assert path.read_text() == text
    assert not (tmp_path / ".claude" / "settings.json").exists() or name == ".claude/settings.json"
