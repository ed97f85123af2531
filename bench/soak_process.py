"""The soak's processes: the daemon as a child, and whatever is left under the soak's folder."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path


class Daemon:
    """The daemon as a child process, its output appended to one log."""

    def __init__(self, root: Path, env: dict[str, str], log: Path) -> None:
        self.root, self.env, self.log = root, env, log
        self.process: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0

    def start(self) -> None:
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "graph.daemon", "--root", str(self.root)],
                cwd=self.log.parent,
                env=self.env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        self.started_at = time.monotonic()

    def rss_kb(self) -> int | None:
        """The daemon's resident set size now, from /proc."""
        if self.process is None or self.process.poll() is not None:
            return None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return None

    def signal(self, sig: signal.Signals, timeout_s: float = 90.0) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    async def wait_for(
        self, text: str, timeout_s: float, *, after: int = 0, poll_s: float = 0.5
    ) -> bool:
        deadline = time.monotonic() + timeout_s
        while text not in self.output()[after:]:
            if time.monotonic() > deadline or (self.process and self.process.poll() is not None):
                return False
            await asyncio.sleep(poll_s)
        return True


def processes_under(folder: Path) -> list[str]:
    """Live processes whose command line or working folder lies under ``folder``."""
    found = []
    mark = str(folder)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if state not in {"Z", "X"} and (mark in cmdline or cwd.startswith(mark)):
            found.append(f"{entry.name}: {cmdline[:120]}")
    return found
