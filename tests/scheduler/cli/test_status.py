"""``nous run`` and ``nous status`` with a real daemon: since when, quiet logs, the guide."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graph.store.memory import Memory
from rsi.confine import describe as describe_sandbox
from scheduler.cli.status import render as render_status
from scheduler.logs import PER_RUN_LOGGERS, configure_logging
from tests.scheduler.cli.conftest import Nous
from tests.support.llm_stub import LLMStub

REPO = Path(__file__).resolve().parents[3]
DEADLINE_S = 60.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait(condition, what: str, output) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {DEADLINE_S} s:\n{output()}")
        time.sleep(0.1)


async def test_status_follows_a_daemon_run_by_nous_run(
    nous: Nous, memory: Memory, agent_id: str, tmp_path: Path, neo4j_env: dict[str, str]
) -> None:
    with LLMStub() as stub:
        llm_url = stub.base_url
        os.environ["NOUS_LLM__BASE_URL"] = llm_url
        try:
            before = await nous("status")
        finally:
            del os.environ["NOUS_LLM__BASE_URL"]
    assert before.code == 0, before.err
    assert "neo4j      Neo4j at" in before.out
    assert f"llm        {llm_url} model local-model: answers" in before.out
    assert "daemon     this agent's daemon has never run" in before.out
    assert f"sandbox    {describe_sandbox()}" in before.out
    assert "budget 0/20 this hour · running 0 · escalations open 0" in before.out
    assert "last 5 decisions:" in before.out
    assert "baseline   none yet" in before.out
    assert "last run   none yet" in before.out
    assert "queued     nothing behind the budget" in before.out

    root, log_file, console = tmp_path / "root", tmp_path / "logs" / "nous.log", tmp_path / "out"
    root.mkdir()
    for name in ("app.py", "test_app.py", "README.md"):  # there before: the baseline
        (root / name).write_text(f"# {name}\n")
    port = _free_port()
    env = {
        **neo4j_env,
        "NOUS_SCHEDULE__STATUS_INTERVAL_S": "0.3",
        "NOUS_SCHEDULE__DECISION_INTERVAL_S": "0.2",
        "NOUS_EXECUTORS__DRY_RUN": "true",
        "NOUS_NEO4J__GUIDE_PORT": str(port),
    }
    argv = [sys.executable, "-m", "scheduler.cli", "run", "--root", str(root)]
    config = tmp_path / "nous.yaml"
    config.write_text("reasoner: rules\n")
    argv += ["--agent-id", agent_id, "--config", str(config), "--log-file", str(log_file)]
    with console.open("w") as sink:
        process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        _wait(lambda: "guide    :play" in console.read_text(), "banner", console.read_text)
        out = console.read_text()
        assert f"guide    :play http://localhost:{port}/nous.html" in out
        assert "llm      not used (rules reasoner)" in out, out
        strategies = root / ".nous" / "strategies.md"
        assert f"strategy 0 learned strategies carried in every prompt ({strategies})" in out
        assert "heuristic pruning (cron '0 3 * * *')" in out
        assert f"  sandbox  {describe_sandbox()}" in out
        assert "No learned strategies yet" in strategies.read_text()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/nous.html", timeout=10) as reply:
            assert "What the memory holds" in reply.read().decode()

        running = await nous("status")
        assert "running since" in running.out, running.out
        assert f"pid {process.pid} on {socket.gethostname()}" in running.out

        # A second daemon on the same root is refused before it touches the spool.
        second = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 1, second.stderr
        assert f"another nous daemon (pid {process.pid}) already watches" in second.stderr

        # Three status lines at 0.3 s mean about fifteen decision-loop runs have passed.
        _wait(lambda: console.read_text().count("] observations") >= 3, "status", console.read_text)
        out = console.read_text()
        assert "escalations open 0" in out and "budget 0/20 this hour" in out
        assert "Running job" not in out and "executed successfully" not in out
        # The rescan waits for the watcher to settle before it compares what it found.
        _wait(lambda: "index sync:" in log_file.read_text(), "index sync", log_file.read_text)
        looked = await nous("status")
        assert f"baseline   3 files (the first look at {root}" in looked.out, looked.out
        assert "budget 0/20 this hour" in looked.out  # what was there started nothing
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
    assert code == 0, console.read_text()
    after = await nous("status")
    assert "daemon     not running: stopped (last started" in after.out


async def test_a_daemon_that_died_without_stopping_is_not_running(
    nous: Nous, memory: Memory
) -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "pass"])
    sleeper.wait()
    data = {"root": "/x", "pid": sleeper.pid, "host": socket.gethostname()}
    await memory.events.emit("daemon_started", data, session_id="s-1")
    status = await nous("status", "--json")
    daemon = json.loads(status.out)["daemon"]
    assert daemon["running"] is False
    assert daemon["how"] == "ended without stopping (killed or crashed)"


def test_job_runs_and_watch_batches_are_logged_only_at_debug() -> None:
    watchfiles_log = logging.getLogger("watchfiles.main")
    try:
        configure_logging("INFO")
        assert logging.getLogger("apscheduler.executors.default").level == logging.WARNING
        # watchfiles' "N changes detected" for every batch of file events is off at INFO.
        assert not watchfiles_log.isEnabledFor(logging.INFO)
        configure_logging("DEBUG")
        assert logging.getLogger("apscheduler.executors.default").level == logging.DEBUG
        assert watchfiles_log.isEnabledFor(logging.INFO)
    finally:
        for name in PER_RUN_LOGGERS:
            logging.getLogger(name).setLevel(logging.NOTSET)


def test_the_decisions_table_never_cuts_a_path_or_a_time() -> None:
    path = "sqlite_utils/plugins/very/deeply/nested/package/a_module_with_a_long_name.py"
    at = datetime(2026, 11, 26, 16, 55, 7, tzinfo=UTC)
    report = {
        "agent_id": "nous",
        "neo4j": {"where": "bolt://127.0.0.1:7687"},
        "llm": {"base_url": "http://127.0.0.1:1234/v1", "model": "m", "used": False},
        "sandbox": "ok",
        "daemon": {"how": "never started"},
        "operations": {"summary": "0 actions in the last hour"},
        "rsi": {"desires": 0, "heuristics": 0},
        "recent_decisions": [
            {
                "id": "01M8CCD2NEQ7NN8WKEQEMWD6SN",
                "at": at,
                "type": "wait",
                "confidence": 0.45,
                "status": "closed",
                "template": "run_tests_for_the_code_under_test_that_changed",
                "path": path,
            }
        ],
    }
    text = render_status(report)
    assert "…" not in text
    assert "2026-11-26 16:55:07" in text
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("01M8CCD2NEQ7NN8WKEQEMWD6SN"))
    column = lines[start - 2].index("path")
    pieces = [line[column:].strip() for line in lines[start:] if line[column:].strip()]
    assert "".join(pieces) == path  # wrapped after a "/", never cut
    assert all(piece.endswith("/") for piece in pieces[:-1]) and len(pieces) > 1
