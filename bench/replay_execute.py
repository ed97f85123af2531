"""The replay's runs executed for real, and their total time (issue 55).

With ``python -m bench.replay --execute`` the daemon runs its templates'
commands instead of a dry run, in an environment where the project's tests can
run: a virtual environment in the cache (outside the repository) with the last
release's test dependencies, the project itself uninstalled so the tests
import the watched root's copy. After each release the replay waits until no
run is in flight or queued. The time each run took comes from its
``Execution`` node; what one run per changed file would have cost is each
run's time counted once per change its decision CONSIDERED (exact for a
whole-suite command; for a command given the changed files, an upper bound,
as a run of one file is shorter than a run of several).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graph.store.memory import Memory

QUIET_S = 5.0
"""No run in flight for this long after a release: its queued runs have started and ended."""


@dataclass(frozen=True)
class RunTimes:
    """The replay's executed runs: seconds by template, and had each change run alone."""

    runs: Counter[str]
    seconds: dict[str, float]
    alone_seconds: dict[str, float]
    failed: int
    unfinished: int

    @classmethod
    def of(cls, rows: list[dict[str, Any]]) -> RunTimes:
        """Sum the rows of ``bench/replay_runs`` (dry runs left out)."""
        runs: Counter[str] = Counter()
        seconds: dict[str, float] = {}
        alone: dict[str, float] = {}
        failed = unfinished = 0
        for row in rows:
            if row["dry_run"]:
                continue
            name = str(row["template"])
            runs[name] += 1
            if row["seconds"] is None:
                unfinished += 1
                continue
            took = float(row["seconds"])
            seconds[name] = seconds.get(name, 0.0) + took
            alone[name] = alone.get(name, 0.0) + took * max(1, int(row["considered"]))
            failed += row["success"] is False
        return cls(runs, seconds, alone, failed, unfinished)

    def print(self) -> float:
        """Print the table; the ratio of the runs' total time to one run per changed file."""
        for name in sorted(self.runs):
            took, alone = self.seconds.get(name, 0.0), self.alone_seconds.get(name, 0.0)
            line = f"{self.runs[name]:>3} runs {took:>8.1f} s; one run per changed file"
            print(f"  {name:<32} {line} {alone:>8.1f} s")
        total, alone = sum(self.seconds.values()), sum(self.alone_seconds.values())
        ratio = total / alone if alone else 0.0
        outcome = f"{self.failed} failed, {self.unfinished} unfinished"
        print(f"runs' total time: {total:.1f} s; one run per changed file {alone:.1f} s", end="")
        print(f" ({ratio:.2f}x); {outcome}")
        return ratio


def runner_environment(project: str, top: Path, cache: Path, env: dict[str, str]) -> dict[str, str]:
    """``env`` with a virtual environment first on PATH that has ``top``'s test dependencies.

    Made once in ``cache``: ``pip install top[test]`` (``top`` without extras when it has
    none), then the project itself uninstalled, so ``python3 -m pytest`` in the watched root
    tests the root's copy. Nous must be installed in this interpreter (``pip install -e .``).
    """
    venv = cache / f"runner-{project}"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q"]
        if subprocess.run([*pip, f"{top}[test]"], check=False).returncode != 0:
            subprocess.run([*pip, str(top), "pytest"], check=True)
        subprocess.run([str(python), "-m", "pip", "uninstall", "-q", "-y", project], check=True)
    path = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    # The commands inherit the daemon's environment: a PYTHONPATH to this repository would put
    # Nous's own metadata in the runner's `pip check` (the daemon finds Nous without it).
    kept = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    return {**kept, "PATH": path, "VIRTUAL_ENV": str(venv)}


async def runs_settled(memory: Memory, timeout_s: float, version: str) -> None:
    """Wait until no run has been in flight for :data:`QUIET_S` (queued ones included)."""
    started = time.monotonic()
    quiet_since: float | None = None
    while time.monotonic() - started < timeout_s:
        rows = await memory.read("bench/replay_runs")
        if any(r["seconds"] is None and not r["dry_run"] for r in rows):
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= QUIET_S:
            break
        await asyncio.sleep(1.0)
    print(f"version {version}: runs settled after {time.monotonic() - started:.0f} s", flush=True)
