"""The hook's lean first step: its arguments read by hand, its imports kept to a bare minimum."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scheduler.claude.hook_client import daemon_arguments, main

# What the hook process must not load before it asks the daemon: each costs it a visible part
# of a bare interpreter's start (issue 18's target is 3x `python -c pass` for the whole hook).
HEAVY = ("argparse", "threading", "typing", "tempfile", "socket", "asyncio", "pydantic", "neo4j")
_LOADED = "import sys, json; print(json.dumps(sorted(sys.modules)))"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        pytest.param(["Stop", "--root", "/p"], ("Stop", "/p"), id="root"),
        pytest.param(["Stop", "--root=/p q"], ("Stop", "/p q"), id="root-equals"),
        pytest.param(["Stop", "--config", "x.yaml"], None, id="config"),
        pytest.param(["Stop", "--agent-id", "a"], None, id="agent"),
        pytest.param(["Nope"], None, id="unknown-event"),
        pytest.param([], None, id="no-event"),
        pytest.param(["Stop", "--root"], None, id="missing-value"),
        pytest.param(["Stop", "--root", "--config"], None, id="option-as-value"),
        pytest.param(["Stop", "--root="], None, id="empty-root"),
        pytest.param(["Stop", "--root", "/p", "--root", "/q"], None, id="twice"),
    ],
)
def test_the_common_arguments_are_read_by_hand(
    argv: list[str], expected: tuple[str, str] | None
) -> None:
    assert daemon_arguments(argv) == expected


def test_no_root_means_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert daemon_arguments(["SessionEnd"]) == ("SessionEnd", str(tmp_path))


@pytest.mark.parametrize(
    ("argv", "said"),
    [(["NoSuchEvent"], "invalid choice"), (["Stop", "--bogus"], "unrecognized arguments")],
)
def test_anything_else_is_explained_by_the_full_parser_and_exits_0(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0  # exit 2 would block a PreToolUse call
    assert said in capsys.readouterr().err


def test_the_client_loads_nothing_heavy_before_it_asks() -> None:
    def loaded(code: str) -> set[str]:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
        return set(json.loads(done.stdout.decode().splitlines()[-1]))

    bare = loaded(_LOADED)
    client = loaded(
        "from scheduler.cli import main\nimport scheduler.claude.hook_client\n" + _LOADED
    )
    added = client - bare
    assert "scheduler.claude.hook_client" in added
    assert sorted(m for m in HEAVY if m in added) == []
