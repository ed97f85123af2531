"""The daemon's self-improvement parts: the daily prune job and the strategy book it refreshes."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from graph.server.finder import Neo4jEndpoint
from graph.settings import RSISettings
from graph.store.memory import Memory
from rsi.build import build_self_improvement
from scheduler.self_improvement import prune_now, register_prune_job
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
    description = register_prune_job(scheduler, settings, parts)
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
    assert await prune_now(parts) is None
    assert "heuristic pruning failed" in caplog.text
