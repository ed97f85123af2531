"""``nous run`` refuses roots no daemon may watch, and roots nested in a running daemon's.

The daemon is the real one (``python -m scheduler.cli run``), as in
``test_status.py``; the refusals come before anything is written.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.scheduler.cli.conftest import Nous

REPO = Path(__file__).resolve().parents[3]
DEADLINE_S = 60.0


async def test_the_whole_system_and_a_link_to_etc_are_refused_with_exit_2(
    nous: Nous, tmp_path: Path
) -> None:
    existed = Path("/.nous").exists()
    refused = await nous("run", "--root", "/")
    assert refused.code == 2, refused.err
    assert "watch.root: / is a system folder" in refused.err
    assert Path("/.nous").exists() == existed  # nothing written there

    link = tmp_path / "config"
    link.symlink_to("/etc")
    refused = await nous("run", "--root", str(link))
    assert refused.code == 2, refused.err
    assert f"{link} (that is /etc) is one of the system's own folders" in refused.err
    assert not Path("/etc/.nous").exists()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _nested_argv(root: Path, agent_id: str, config: Path) -> list[str]:
    return [
        *(sys.executable, "-m", "scheduler.cli", "run", "--root", str(root)),
        *("--agent-id", agent_id, "--config", str(config)),
    ]


def test_a_root_inside_or_above_a_running_daemons_root_is_refused(
    tmp_path: Path, agent_id: str, neo4j_env: dict[str, str]
) -> None:
    root, console = tmp_path / "r2", tmp_path / "out"
    (root / "sub").mkdir(parents=True)
    config = tmp_path / "nous.yaml"
    config.write_text("reasoner: rules\n")
    env = {
        **neo4j_env,
        "NOUS_EXECUTORS__DRY_RUN": "true",
        "NOUS_NEO4J__GUIDE_PORT": str(_free_port()),
    }
    with console.open("w") as sink:
        daemon = subprocess.Popen(
            _nested_argv(root, agent_id, config),
            cwd=REPO,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + DEADLINE_S
        while "recovered" not in console.read_text():
            if time.monotonic() > deadline or daemon.poll() is not None:
                pytest.fail(f"no banner within {DEADLINE_S} s:\n{console.read_text()}")
            time.sleep(0.1)
        for other, where in ((root / "sub", "holds"), (tmp_path, "lies inside")):
            second = subprocess.run(
                _nested_argv(other, agent_id + "-2", config),
                cwd=REPO,
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert second.returncode == 1, second.stderr
            assert f"(pid {daemon.pid}) watches {root}, which {where} this folder" in (
                second.stderr
            )
        assert not (root / "sub" / ".nous").exists()  # refused before anything was written
    finally:
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=60)
    assert code == 0, console.read_text()
