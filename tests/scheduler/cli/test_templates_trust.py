"""``nous templates trust`` and the trust ``list`` and ``init`` show, run as a person runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cognition.act.trust import TRUST_FILE, TrustStore
from graph.settings import load_settings
from scheduler.cli import main
from scheduler.cli.status import describe_templates, templates_trust_state
from tests.support.packs import make_tree

REPO = Path(__file__).resolve().parents[3]
EMPTY = REPO / "tests" / "support" / "empty.yaml"


def nous(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv[:2], "--config", str(EMPTY), *argv[2:]])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_carried_file_is_listed_untrusted_until_trust_records_its_hash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], user_state: Path
) -> None:
    own = tmp_path / ".nous" / "templates.yaml"
    own.parent.mkdir()
    own.write_text((REPO / "cognition" / "act" / "templates.yaml").read_text())
    code, out, _ = nous(capsys, "templates", "list", "--root", str(tmp_path))
    assert code == 0
    assert "trust: NOT trusted, runs no command (never trusted)" in out
    assert f"to trust it: nous templates trust --root {tmp_path}" in out
    code, out, _ = nous(capsys, "templates", "trust", "--root", str(tmp_path))
    assert code == 0 and f"trusted {own}" in out
    record = json.loads((user_state / TRUST_FILE).read_text())
    assert str(own.resolve()) in record["files"]
    code, out, _ = nous(capsys, "templates", "list", "--root", str(tmp_path), "--json")
    listed = json.loads(out)
    assert listed["trusted"] is True and listed["trust"].startswith("trusted ")


def test_trust_refuses_a_file_that_does_not_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], user_state: Path
) -> None:
    own = tmp_path / ".nous" / "templates.yaml"
    own.parent.mkdir()
    own.write_text("templates:\n  broken: [\n")
    code, _, err = nous(capsys, "templates", "trust", "--root", str(tmp_path))
    assert code == 2 and str(own) in err
    record = user_state / TRUST_FILE
    assert not record.exists() or str(own.resolve()) not in record.read_text()


def test_the_shipped_templates_need_no_trust(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = nous(capsys, "templates", "trust", "--root", str(tmp_path))
    assert code == 0 and "nothing to trust (shipped with Nous)" in out
    code, out, _ = nous(capsys, "templates", "list", "--root", str(tmp_path))
    assert "trust: trusted (shipped with Nous)" in out


def test_init_trusts_what_it_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'tiny'\n", "tiny/core.py": "x = 1\n"})
    code, out, _ = nous(capsys, "templates", "init", "--root", str(tmp_path))
    assert code == 0 and "trusted: its commands may run" in out
    code, out, _ = nous(capsys, "templates", "list", "--root", str(tmp_path))
    assert "trust: trusted (trusted " in out


def test_status_says_whether_the_templates_file_may_run_commands(tmp_path: Path) -> None:
    own = tmp_path / ".nous" / "templates.yaml"
    own.parent.mkdir()
    own.write_text("templates: {}\n")
    settings = load_settings(EMPTY, overrides={"watch.root": str(tmp_path)})
    state = templates_trust_state(settings)
    assert (state["file"], state["trusted"], state["why"]) == (str(own), False, "never trusted")
    line = describe_templates(state)
    assert (
        f"NOT trusted, runs no command (never trusted); nous templates trust --root {tmp_path}"
        in line
    )
    TrustStore(settings.trust_dir, tmp_path).trust(own)
    assert templates_trust_state(settings)["trusted"] is True
