"""``nous service``: a systemd user unit and a launchd plist, installed under a temporary HOME."""

from __future__ import annotations

import os
import plistlib
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from scheduler.cli import main

EMPTY = Path(__file__).resolve().parents[2] / "support" / "empty.yaml"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME and XDG_CONFIG_HOME of the test's own: nothing is installed system-wide."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


def _service(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(
        ["service", *argv, "--root", str(root), "--config", str(EMPTY), "--agent-id", "demo"]
    )
    out, err = capsys.readouterr()
    return code, out + err


def test_systemd_unit_says_restart_root_settings_and_env_file(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "my notes"
    root.mkdir()
    code, unit = _service(capsys, root, "print", "--kind", "systemd")
    assert code == 0
    assert "Restart=on-failure" in unit
    assert f"WorkingDirectory={root}" in unit
    assert f"EnvironmentFile=-{home}/.config/nous/demo.env" in unit
    assert f'ExecStart={sys.executable} -m graph.daemon --root "{root}" --agent-id demo' in unit
    assert f"--config {EMPTY}" in unit
    assert "NEO4J_PASSWORD" not in unit  # the password lives in the environment file only
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed: the unit was not verified")
    path = tmp_path / "nous-demo.service"
    path.write_text(unit)
    verify = subprocess.run(
        ["systemd-analyze", "verify", str(path)], capture_output=True, text=True, check=False
    )
    # Only what concerns this unit counts (the host's own units may draw warnings).
    complaints = [line for line in verify.stderr.splitlines() if "nous-demo" in line]
    assert verify.returncode == 0 and not complaints, verify.stderr


def test_launchd_plist_parses(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = _service(capsys, tmp_path, "print", "--kind", "launchd")
    assert code == 0
    plist = plistlib.loads(text.encode())
    assert plist["Label"] == "com.nous.demo"
    assert plist["WorkingDirectory"] == str(tmp_path)
    assert plist["KeepAlive"] == {"SuccessfulExit": False}
    script = plist["ProgramArguments"][2]
    assert f"{home}/.config/nous/demo.env" in script
    assert "-m graph.daemon --root" in script and "--agent-id demo" in script


def test_install_and_uninstall_stay_in_the_users_folders(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _service(capsys, tmp_path, "install", "--kind", "systemd")
    assert code == 0
    unit = home / ".config" / "systemd" / "user" / "nous-demo.service"
    env = home / ".config" / "nous" / "demo.env"
    assert unit.is_file() and "Restart=on-failure" in unit.read_text()
    assert stat.S_IMODE(os.stat(env).st_mode) == 0o600
    assert "systemctl --user enable --now nous-demo.service" in out

    code, out = _service(capsys, tmp_path, "uninstall", "--kind", "systemd")
    assert code == 0 and not unit.exists() and env.exists()
    code, _ = _service(capsys, tmp_path, "uninstall", "--kind", "systemd")
    assert code == 1

    code, _ = _service(capsys, tmp_path, "install", "--kind", "launchd")
    plist = home / "Library" / "LaunchAgents" / "com.nous.demo.plist"
    assert code == 0 and plistlib.loads(plist.read_bytes())["Label"] == "com.nous.demo"


def test_a_root_that_is_not_a_folder_is_bad_input(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _service(capsys, tmp_path / "missing", "print")
    assert code == 2 and "is not a folder" in out


def test_init_claude_offers_the_daemon_as_a_user_service(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27: `nous init claude --service` installs the daemon for the project's root."""
    project = tmp_path / "project"
    project.mkdir()
    capsys.readouterr()
    argv = ["init", "claude", "--root", str(project), "--service", "--config", str(EMPTY)]
    assert main([*argv, "--agent-id", "demo"]) == 0
    out = capsys.readouterr().out
    unit = home / ".config" / "systemd" / "user" / "nous-demo.service"
    if sys.platform == "darwin":  # pragma: no cover - the launchd agent there
        unit = home / "Library" / "LaunchAgents" / "com.nous.demo.plist"
    assert unit.is_file(), out
    assert f"--root {project}" in unit.read_text() or str(project) in unit.read_text()
    assert (project / ".claude" / "settings.json").is_file(), "the hooks too"
    assert "enable and start it with" in out
