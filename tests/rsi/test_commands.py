"""``python -m rsi cycle`` and the scheduled job."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from graph.models import RSICycle, new_id
from graph.settings import RSISettings
from graph.store.memory import Memory
from rsi.engine import RSIEngine
from scheduler.rsi_job import RSIJob, register_rsi_job


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
        assert {"processed", "accepted", "rejected", "practised", "succeeded"} <= set(printed)
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


class FakeEngine:
    def __init__(self) -> None:
        self.runs = 0

    async def run_cycle(self) -> RSICycle:
        self.runs += 1
        return RSICycle(agent_id="fake", id=str(self.runs), selection_seed=0)


async def test_the_job_keeps_to_the_hourly_allowance() -> None:
    now = [0.0]
    engine = FakeEngine()
    job = RSIJob(engine, RSISettings(max_cycles_per_hour=2), clock=lambda: now[0])  # type: ignore[arg-type]
    assert await job.run() is not None and await job.run() is not None
    assert await job.run() is None and engine.runs == 2
    now[0] = 3600.0
    assert await job.run() is not None and engine.runs == 3


@pytest.mark.parametrize("enabled", [True, False])
async def test_the_job_is_registered_only_when_enabled(enabled: bool, memory: Memory) -> None:
    scheduler = AsyncIOScheduler()
    settings = RSISettings(enabled=enabled, cycle_interval_s=120)
    described = register_rsi_job(
        scheduler, settings, RSIJob(RSIEngine(memory, None, settings), settings)
    )
    job = scheduler.get_job("rsi_cycle")
    if enabled:
        assert job is not None and job.max_instances == 1 and job.coalesce
        assert described == ["RSI cycle (every 120 s, at most 12/h)"]
    else:
        assert job is None and described == []
