"""The real daemon, ``python -m graph.daemon``, in a subprocess for end-to-end tests."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# Quick ticks, the rules reasoner, and nothing executed unless a test says otherwise.
QUICK_AND_DRY = {
    "NOUS_SCHEDULE__STATUS_INTERVAL_S": "0.5",
    "NOUS_SCHEDULE__DECISION_INTERVAL_S": "0.5",
    "NOUS_WATCH__DEBOUNCE_MS": "100",
    "NOUS_REASONER": "rules",
    "NOUS_EXECUTORS__DRY_RUN": "true",
}


class Daemon:
    """``python -m graph.daemon`` in a subprocess (optionally behind a prefix such as setpriv)."""

    def __init__(
        self, root: Path, agent_id: str, env: dict[str, str], log: Path, prefix: list[str]
    ) -> None:
        self.log = log
        self._sink = log.open("w")
        argv = [sys.executable, "-m", "graph.daemon", "--root", str(root), "--agent-id", agent_id]
        self.process = subprocess.Popen(
            [*prefix, *argv],
            cwd=REPO,
            env=env,
            stdout=self._sink,
            stderr=subprocess.STDOUT,
        )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, text: str, timeout_s: float = 60.0) -> None:
        deadline = time.monotonic() + timeout_s
        while text not in self.output():
            if self.process.poll() is not None:
                pytest.fail(f"daemon exited {self.process.returncode}:\n{self.output()}")
            if time.monotonic() > deadline:
                pytest.fail(f"no {text!r} within {timeout_s} s:\n{self.output()}")
            time.sleep(0.1)

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        code = self.process.wait(timeout=60)
        self.close()
        return code

    def close(self) -> None:
        if not self._sink.closed:
            self._sink.close()
