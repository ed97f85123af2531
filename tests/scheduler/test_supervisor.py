"""The supervisor: a dying part is logged, shown, restarted; one that cannot restart stops all."""

from __future__ import annotations

import asyncio
import logging

import pytest

from scheduler.supervisor import Part, Supervisor


async def test_a_part_that_dies_is_restarted_and_reported(caplog: pytest.LogCaptureFixture) -> None:
    stop = asyncio.Event()
    runs: list[int] = []
    deaths: list[tuple[str, str]] = []

    async def flaky() -> None:
        runs.append(len(runs))
        if len(runs) <= 2:
            raise RuntimeError(f"boom {len(runs)}")
        await stop.wait()

    supervisor = Supervisor(
        stop, on_death=lambda name, why: deaths.append((name, why)), backoff_s=(0.01,)
    )
    with caplog.at_level(logging.ERROR, logger="scheduler.supervisor"):
        supervisor.start([Part("watcher", flaky)])
        deadline = asyncio.get_running_loop().time() + 5
        while len(runs) < 3:
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.01)
        stop.set()
        await supervisor.wait(5)
    assert supervisor.failure is None
    assert supervisor.restarts["watcher"] == 2
    assert deaths == [("watcher", "RuntimeError: boom 1"), ("watcher", "RuntimeError: boom 2")]
    assert any("watcher died: RuntimeError: boom 1" in r.getMessage() for r in caplog.records)


async def test_a_part_that_cannot_restart_stops_the_daemon_with_the_reason() -> None:
    stop = asyncio.Event()

    async def broken() -> None:
        raise FileNotFoundError("the root is gone")

    async def healthy() -> None:
        await stop.wait()

    supervisor = Supervisor(stop, backoff_s=(0.01,), max_failures=3)
    supervisor.start([Part("watcher", broken), Part("writer", healthy)])
    await asyncio.wait_for(stop.wait(), 5)
    await supervisor.wait(5)
    assert supervisor.failure is not None
    assert supervisor.failure.startswith("watcher cannot run: died 3 times in a row")
    assert "the root is gone" in supervisor.failure


async def test_a_part_that_returns_on_its_own_counts_as_a_death() -> None:
    stop = asyncio.Event()
    deaths: list[str] = []

    async def quits() -> None:
        return

    supervisor = Supervisor(
        stop, on_death=lambda _, why: deaths.append(why), backoff_s=(0.01,), max_failures=2
    )
    supervisor.start([Part("jobs", quits)])
    await asyncio.wait_for(stop.wait(), 5)
    await supervisor.wait(5)
    assert deaths == ["ended without being asked to"] * 2
