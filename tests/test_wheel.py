"""The wheel carries everything: built, installed in a fresh venv, run from another folder.

SLOW (about a minute: the build, ``python -m venv`` and a dependency install from
the pip cache) and it RUNS IN CI (marker ``wheel``; deselect it locally with
``-m 'not wheel'``). Every file the code loads at run time must be package data
found through ``importlib.resources``: an editable install hides a path relative
to the source tree, an installed wheel does not.

The build runs on a copy of the checkout, so no ``build/`` folder is left in it
and a stale one cannot slip files into the wheel.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from graph.store.memory import Memory
from graph.watch.rescan import BASELINE_EVENT
from tests.scheduler.claude.mcp_client import call, mcp_session
from tests.support.eventually import eventually

pytestmark = pytest.mark.wheel

REPO = Path(__file__).resolve().parent.parent
EMPTY = REPO / "tests" / "support" / "empty.yaml"
# Data files the code reads at run time, beside the Cypher (every cypher/**/*.cypher).
DATA_FILES = (
    "cognition/act/templates.yaml",
    "cognition/act/packs/code_repository.yaml",
    "cognition/act/packs/notes_vault.yaml",
    "rsi/prompt/constitution.md",
    "rsi/check_runner.py",  # read as text and run inside the sandbox
    "rsi/pytest_runner.py",  # the same
    "rsi/candidate.py",  # the same
)
_NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".nous"
)
INSTALL_TIMEOUT_S = 600
COMMAND_TIMEOUT_S = 120


@dataclass(frozen=True)
class Installed:
    """A fresh venv with the wheel installed, and a folder outside the checkout."""

    wheel: Path
    bin: Path
    elsewhere: Path


def _run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False, **kwargs
    )  # type: ignore[call-overload]
    assert done.returncode == 0, f"{argv[:4]} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    """Build the wheel from a copy of the checkout and install it into a new venv."""
    base = tmp_path_factory.mktemp("wheel")
    source, dist, venv = base / "source", base / "dist", base / "venv"
    shutil.copytree(REPO, source, ignore=_NOT_SOURCE)
    pip_env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    _run(
        [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", str(dist)],
        cwd=source,
        env=pip_env,
    )
    shutil.rmtree(source)  # nothing of the checkout is left to lean on
    (wheel,) = dist.glob("nous-*.whl")
    _run([sys.executable, "-m", "venv", str(venv)])
    # Dependencies the ordinary way: pip's cache (and PIP_FIND_LINKS) make it quick.
    _run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], env=pip_env, cwd=base)
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    yield Installed(wheel, venv / "bin", elsewhere)


@pytest.fixture
def installed_env(neo4j_env: dict[str, str]) -> dict[str, str]:
    """The test Neo4j, and nothing that points back into the checkout."""
    return {
        k: v
        for k, v in neo4j_env.items()
        if k not in {"PYTHONPATH", "VIRTUAL_ENV"} and not k.startswith("NOUS_")
    }


def test_the_wheel_lists_every_data_file(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    cypher = {p.relative_to(REPO).as_posix() for p in (REPO / "cypher").rglob("*.cypher")}
    assert len(cypher) > 100
    assert sorted(cypher - names) == []
    assert "cypher/__init__.py" in names
    for data in DATA_FILES:
        assert data in names
    assert not any(n.startswith(("tests/", "bench/")) for n in names)


def test_installed_code_is_the_wheels(installed: Installed) -> None:
    done = _run(
        [
            str(installed.bin / "python"),
            "-c",
            "import cypher, graph, rsi.strategies as s; print(cypher.__file__);"
            " print(graph.__file__); print(s.load_constitution().version)",
        ],
        cwd=installed.elsewhere,
    )
    lines = done.stdout.split()
    venv = installed.bin.parent.resolve()
    for line in lines[:2]:
        assert Path(line).resolve().is_relative_to(venv), lines
        assert not Path(line).resolve().is_relative_to(REPO), lines
    assert int(lines[2]) >= 1


def test_nous_status_from_another_folder(
    installed: Installed, installed_env: dict[str, str], agent_id: str
) -> None:
    argv = [str(installed.bin / "nous"), "status", "--config", str(EMPTY), "--agent-id", agent_id]
    done = subprocess.run(
        argv,
        cwd=installed.elsewhere,
        env=installed_env,
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no Cypher file" not in done.stdout + done.stderr
    assert "budget 0/20 this hour" in done.stdout, done.stdout


async def test_the_daemon_records_observations_then_rsi_report_runs(
    installed: Installed,
    installed_env: dict[str, str],
    agent_id: str,
    memory: Memory,
    tmp_path: Path,
) -> None:
    root, console = tmp_path / "root", tmp_path / "console.log"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "before.md").write_text("recorded by the start baseline")
    config = tmp_path / "nous.yaml"
    config.write_text("reasoner: rules\n")
    env = {
        **installed_env,
        "NOUS_SCHEDULE__STATUS_INTERVAL_S": "0.5",
        "NOUS_WATCH__DEBOUNCE_MS": "100",
        "NOUS_EXECUTORS__DRY_RUN": "true",
        "NOUS_NEO4J__GUIDE_PORT": str(_free_port()),
    }
    argv = [str(installed.bin / "nous"), "run", "--root", str(root), "--agent-id", agent_id]
    argv += ["--config", str(config), "--log-file", str(tmp_path / "nous.log")]
    with console.open("w") as sink:
        daemon = subprocess.Popen(
            argv, cwd=installed.elsewhere, env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    try:

        async def observed(path: str) -> bool:
            assert daemon.poll() is None, console.read_text()
            return bool(await memory.observations_for_path(path))

        async def baseline_recorded() -> bool:
            assert daemon.poll() is None, console.read_text()
            return bool(await memory.events.events(BASELINE_EVENT, 1))

        # The first start records what is there as the baseline; it acts on none of it.
        await eventually(baseline_recorded, "the start baseline", timeout_s=90)
        assert not await memory.observations_for_path("docs/before.md")
        (root / "docs" / "during.md").write_text("seen by the watcher")
        await eventually(lambda: observed("docs/during.md"), "a change while running", 60)
        time.sleep(1)  # a few seconds of running, status lines included
    finally:
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=COMMAND_TIMEOUT_S)
    out = console.read_text()
    assert code == 0, out
    assert "no Cypher file" not in out
    assert "Traceback" not in out, out

    report_argv = ["report", "--config", str(config), "--agent-id", agent_id, "--root", str(root)]
    # ``nous rsi report`` is the command; ``python -m rsi report`` its alias: both work.
    for command in (
        [str(installed.bin / "nous"), "rsi"],
        [str(installed.bin / "python"), "-m", "rsi"],
    ):
        done = subprocess.run(
            [*command, *report_argv],
            cwd=installed.elsewhere,
            env=installed_env,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.strip(), done.stderr


async def test_nous_mcp_from_another_folder(
    installed: Installed, installed_env: dict[str, str], agent_id: str, tmp_path: Path
) -> None:
    # What a client's .mcp.json runs: the installed console script, in the project folder.
    command = [str(installed.bin / "nous"), "mcp", "--config", str(EMPTY), "--agent-id", agent_id]
    async with mcp_session(command, installed_env, installed.elsewhere, tmp_path / "err") as mcp:
        assert len((await mcp.list_tools()).tools) == 7
        assert "No goals." in await call(mcp, "goals")
        answer = await call(mcp, "recall", question="anything")
        assert "Nothing in memory is relevant to it." in answer
    assert "no Cypher file" not in (tmp_path / "err").read_text()
