"""The daemon's start on the demo: quiet when nothing is wrong, truthful when a tick runs long."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The README's first run is 60 s at a 2 s decision interval: 30 ticks. Here 20 s at
# 0.05 s: 400 ticks, and the first ones (deciding the demo's files) outlast their
# interval many times over, which is what used to log APScheduler's WARNING.
QUIET_S = 20.0
DECISION_INTERVAL_S = 0.05


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_first_seconds_on_the_demo_log_no_warning(
    tmp_path: Path, neo4j_env: dict[str, str], agent_id: str
) -> None:
    root = tmp_path / "demo"
    shutil.copytree(REPO / "demo", root)
    env = {
        **neo4j_env,
        "NOUS_REASONER": "rules",
        "NOUS_SCHEDULE__DECISION_INTERVAL_S": str(DECISION_INTERVAL_S),
        "NOUS_SCHEDULE__STATUS_INTERVAL_S": "1",
        # The demo's files decided at start, as the test is about ticks that outlast their
        # interval: the first look is no baseline here.
        "NOUS_WATCH__BASELINE": "false",
        # Port 7478 may be another daemon's on this machine: that would be a true warning.
        "NOUS_NEO4J__GUIDE_PORT": str(_free_port()),
    }
    argv = [sys.executable, "-m", "graph.daemon", "--root", str(root), "--dry-run"]
    # DEBUG shows the coalesced runs, so the test sees the condition it is about.
    argv += ["--agent-id", agent_id, "--log-level", "DEBUG"]
    log = tmp_path / "daemon.log"
    with log.open("w") as sink:
        daemon = subprocess.Popen(
            argv, cwd=tmp_path, env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    try:
        time.sleep(QUIET_S)
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=60) == 0, log.read_text()[-3000:]
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
    lines = log.read_text().splitlines()
    loud = [line for line in lines if " WARNING " in line or "Warning:" in line]
    assert not loud, "\n".join(loud)
    assert any("decision loop: a run came due while one is in hand" in line for line in lines)
    stopped = next(line for line in lines if line.startswith("nous stopped:"))
    assert int(stopped.split(", ")[1].split()[0]) > 0, stopped  # it decided something
    assert sum(line.startswith("  llm ") for line in lines) == 1  # the banner says it once
    assert any(line.startswith("  jobs     decision loop (every 0.05 s)") for line in lines)
