"""``nous rsi`` through its alias ``python -m rsi``: a cycle, bad settings, the commands listed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from graph.models import new_id
from graph.store.memory import Memory


def run_rsi(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rsi", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


async def test_a_cycle_from_the_command_line(
    neo4j_env: dict[str, str], tmp_path: Path, driver: object
) -> None:
    agent = f"test-{new_id().lower()}"
    done = run_rsi(
        "cycle", "--no-llm", "--agent-id", agent, "--root", str(tmp_path), "--seed", "5",
        env=neo4j_env, cwd=tmp_path,
    )  # fmt: skip
    try:
        assert done.returncode == 0, done.stderr
        printed = json.loads(done.stdout)
        assert printed["selection_seed"] == 5 and printed["error"] is None
        assert {"processed", "accepted", "rejected", "practiced", "succeeded"} <= set(printed)
    finally:
        await Memory(driver, agent).forget()  # type: ignore[arg-type]


def test_bad_rsi_settings_exit_2_naming_the_key(neo4j_env: dict[str, str], tmp_path: Path) -> None:
    config = tmp_path / "nous.yaml"
    config.write_text("rsi:\n  emergence_treshold: 0.5\n")
    done = run_rsi("cycle", "--config", str(config), env=neo4j_env, cwd=tmp_path)
    assert done.returncode == 2 and "emergence_treshold" in done.stderr
    config.write_text("rsi:\n  consistency_runs: 1\n")
    done = run_rsi("cycle", "--config", str(config), env=neo4j_env, cwd=tmp_path)
    assert done.returncode == 2 and "consistency_runs" in done.stderr


def test_the_command_lists_its_subcommands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rsi", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "cycle" in done.stdout
