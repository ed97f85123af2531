"""``nous`` is a console script; every subcommand explains itself and takes the common options."""

from __future__ import annotations

import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from scheduler.cli import SUBCOMMANDS, build_parser, main

REPO = Path(__file__).resolve().parents[3]
NAMES = [
    "run",
    "status",
    "why",
    "escalations",
    "censors",
    "goals",
    "desires",
    "heuristics",
    "rsi cycle",
    "rsi prune",
    "rsi report",
    "calibration",
    "audit",
    "browser",
    "neo4j",
    "service",
    "embeddings",
    "embeddings status",
    "embeddings backfill",
    "embeddings reembed",
    "init",
    "templates init",
    "templates list",
    "templates check",
    "templates explain",
    "hook",
    "tokens",
    "tokens create",
    "tokens list",
    "tokens revoke",
    "mcp",
]
DATA = {"status", "why", "escalations", "censors", "goals", "desires", "heuristics"}
DATA |= {"calibration", "audit", "rsi report", "embeddings", "embeddings status"}
DATA |= {"templates init", "templates list", "templates check", "templates explain"}
DATA |= {"tokens", "tokens create", "tokens list", "tokens revoke"}


def test_nous_is_a_console_script() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["nous"] == "scheduler.cli:entry_point"
    assert len(SUBCOMMANDS) == 20  # one module a subcommand


@pytest.mark.parametrize("name", NAMES)
def test_every_subcommand_has_help_with_the_common_options(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*name.split(), "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert f"usage: nous {name}" in text
    assert "--config" in text and "--agent-id" in text
    if name in DATA:
        assert "--json" in text


@pytest.mark.parametrize(
    ("alias", "nous"),
    [(["rsi"], ["rsi"]), (["graph.daemon"], ["run"])],
    ids=["python -m rsi", "python -m graph.daemon"],
)
def test_an_alias_answers_as_its_nous_subcommand(alias: list[str], nous: list[str]) -> None:
    def help_of(argv: list[str]) -> str:
        done = subprocess.run(
            [sys.executable, *argv, "--help"], cwd=REPO, capture_output=True, text=True, check=True
        )
        return done.stdout.split("\n\n", 1)[1]  # past the usage, which names the program

    assert help_of(["-m", *alias]) == help_of(["-m", "scheduler.cli", *nous])


def test_nous_run_has_the_daemons_options() -> None:
    from graph.daemon import parse_args

    run = build_parser().parse_args(["run", "--root", "x", "--dry-run", "--log-level", "debug"])
    assert run.root == Path("x") and run.dry_run and run.log_level == "DEBUG"
    assert vars(parse_args(["--root", "x"])).keys() <= vars(run).keys()


def test_python_m_graph_daemon_still_answers() -> None:
    reply = subprocess.run(
        [sys.executable, "-m", "graph.daemon", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert reply.returncode == 0 and "--log-file" in reply.stdout


def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["goals", "add", "x", "--priority", "urgent"])
    assert exit_.value.code == 2
    assert main(["status", "--config", "/nonexistent/nous.yaml"]) == 2
    assert "nonexistent" in capsys.readouterr().err


def test_status_without_neo4j_says_so_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    monkeypatch.setenv("NEO4J_URI", f"bolt://127.0.0.1:{closed}")
    config = tmp_path / "nous.yaml"
    config.write_text("reasoner: rules\n")
    assert main(["status", "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "neo4j      not answering: Neo4j at bolt://127.0.0.1:" in out
    assert "llm        not used (reasoner: rules)" in out
    assert main(["goals", "--config", str(config)]) == 1
    assert "`nous neo4j start` starts one" in capsys.readouterr().err
