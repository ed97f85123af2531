"""The daemon's jobs: one run at a time, quietly; the RSI cycle's allowance; the daily pruning."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from graph.models import RSICycle
from graph.server.finder import Neo4jEndpoint
from graph.settings import RSISettings, ScheduleSettings
from graph.store.memory import Memory
from rsi.engine import RSIEngine
from scheduler.improvement import build_self_improvement
from scheduler.jobs import (
    OneAtATime,
    RSIJob,
    prune_now,
    register_jobs,
    register_prune_job,
    register_rsi_job,
)
from tests.conftest import graph_driver
from tests.support.recall_seed import Seeder, seeding


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


async def test_the_daily_job_prunes_and_rewrites_the_strategies(
    memory: Memory, seed: Seeder, tmp_path: Path
) -> None:
    old = datetime.now(UTC) - timedelta(days=31)
    [stale] = await seed.nodes(
        "heuristics", {"domain": "code", "content": "Stale.", "status": "active", "at": old}
    )
    settings = RSISettings(prune_cron="15 4 * * *")
    parts = await build_self_improvement(settings, memory, None, tmp_path)
    assert parts.strategies.current.strategy_ids == (stale,)

    scheduler = AsyncIOScheduler()
    description = register_prune_job(scheduler, settings, parts.pruner)
    job = scheduler.get_job("heuristic_prune")
    assert description == "heuristic pruning (cron '15 4 * * *')"
    assert job is not None and str(job.trigger) == (
        "cron[month='*', day='*', day_of_week='*', hour='4', minute='15']"
    )

    report = await job.func(*job.args)
    assert report is not None and report.pruned_ids == [stale]
    assert parts.strategies.current.strategy_ids == ()
    document = json.loads((tmp_path / ".nous" / "strategies.json").read_text())
    assert document["heuristics"] == []


async def test_a_failing_prune_is_logged_not_raised(
    neo4j_endpoint: Neo4jEndpoint, agent_id: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    driver = graph_driver(neo4j_endpoint)
    await driver.start()
    parts = await build_self_improvement(RSISettings(), Memory(driver, agent_id), None, tmp_path)
    await driver.close()  # the memory goes away under the job
    assert await prune_now(parts.pruner) is None
    assert "heuristic pruning failed" in caplog.text


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
        assert job is not None and job.name == "RSI cycle" and job.coalesce
        assert described == ["RSI cycle (every 120 s, at most 12/h)"]
    else:
        assert job is None and described == []


async def test_a_run_due_while_one_is_in_hand_is_coalesced_and_shown_when_long() -> None:
    now = [0.0]
    release = asyncio.Event()
    runs = 0

    async def tick() -> None:
        nonlocal runs
        runs += 1
        await release.wait()

    paced = OneAtATime("decision loop", tick, clock=lambda: now[0])
    first = asyncio.create_task(paced.run())
    await asyncio.sleep(0)
    await paced.run()  # due while the first is in hand: returns at once
    await paced.run()
    assert runs == 1 and paced.coalesced == 2
    now[0] = 59.0
    assert paced.lag() is None
    now[0] = 75.0
    assert paced.lag() == "decision loop behind: a run in hand for 75 s, 2 due runs coalesced"
    release.set()
    await first
    assert paced.lag() is None
    await paced.run()
    assert runs == 2 and paced.coalesced == 0


async def test_a_tick_slower_than_its_interval_is_coalesced_without_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runs = 0

    async def tick() -> None:
        nonlocal runs
        runs += 1
        await asyncio.sleep(0.6)

    async def nothing(**_: object) -> None:
        return None

    paced = OneAtATime("decision loop", tick)
    scheduler = AsyncIOScheduler()
    schedule = ScheduleSettings(decision_interval_s=0.05, status_interval_s=3600)
    part = SimpleNamespace(run=nothing, emit=nothing)
    register_jobs(scheduler, schedule, part, part, decide=paced)  # type: ignore[arg-type]
    assert scheduler.get_job("decision_loop").name == "decision loop"  # type: ignore[union-attr]
    with caplog.at_level(logging.DEBUG, logger="apscheduler"):
        scheduler.start()
        await asyncio.sleep(1.5)
        scheduler.shutdown(wait=False)
    assert runs >= 2 and paced.coalesced > 0  # ran, and runs came due during a run
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


async def test_a_job_cancelled_at_shutdown_logs_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The vectors job (any job) in hand when SIGTERM stops the scheduler: APScheduler
    # cancels it and logs whatever it raised, with its traceback, CancelledError too.
    started = asyncio.Event()

    async def embed_slowly() -> None:
        started.set()
        await asyncio.sleep(60)

    scheduler = AsyncIOScheduler()
    vectors = OneAtATime("vectors", embed_slowly)
    scheduler.add_job(vectors.run, "interval", seconds=0.05, id="vectors", max_instances=2)
    scheduler.start()
    try:
        await asyncio.wait_for(started.wait(), 10)
        with caplog.at_level(logging.INFO):
            scheduler.shutdown(wait=False)
            await asyncio.sleep(0.2)
    finally:
        if scheduler.running:
            scheduler.shutdown(wait=False)
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    assert any("vectors: the run in hand was cancelled" in r.getMessage() for r in caplog.records)
