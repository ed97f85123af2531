"""A burst of new files: how long until all are in the graph, and what the rescan had to catch.

    python -m bench.burst [--files 5000]

Builds the daemon's parts with the scheduler's own ``build`` (watcher,
ingestor, memory), starts the watcher and the writer on an empty temporary
root, writes ``--files`` small files as fast as Python can, and measures the
time from the last write until every file has an ``Observation`` in the
graph. If the watcher missed events (watchfiles drops them when the kernel
queue overflows) the wait stops when the count stops growing, and the
rescan is run to catch the rest; the report says how many it caught.

Target (issue 2): everything persisted within 5 s of the last write. The
baseline of the same run is the time the writes themselves took.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path

from bench.common import bench_settings, verdict
from cognition.act.attribution import ActiveExecutions
from graph.models import new_id
from graph.settings import child_environment
from graph.store.memory import Memory
from scheduler.compose.connect import open_graph
from scheduler.compose.daemon import build_intake
from scheduler.index_sync import IndexSync
from scheduler.jobs import StatusLine, watch_into

SETTLE_S = 3.0
TIMEOUT_S = 120.0


async def run(count: int) -> bool:
    settings = bench_settings()
    with tempfile.TemporaryDirectory(prefix="nous-burst-") as tmp:
        root = Path(tmp)
        settings.watch.root = root
        settings.agent_id = f"bench-burst-{new_id().lower()}"
        async with AsyncExitStack() as stack:  # the driver's close, whatever fails
            endpoint, driver = await open_graph(stack, settings, child_environment())
            print(f"neo4j: {endpoint.describe()}")
            memory = Memory(driver, settings.agent_id)
            # The daemon's intake (writer, watcher, rescan) without its loop: no episode to end.
            ingestor, watcher, index_sync = build_intake(settings, root, memory, ActiveExecutions())
            stop = asyncio.Event()
            writer = asyncio.create_task(ingestor.run(stop))
            status = StatusLine(ingestor, index_sync, out=io.StringIO())
            watching = asyncio.create_task(watch_into(watcher, ingestor, stop, status))
            try:
                await asyncio.wait_for(watcher.ready.wait(), 30)
                write_start = time.perf_counter()
                for i in range(count):
                    (root / f"file{i:05}.txt").write_text(f"burst file {i}\n")
                last_write = time.perf_counter()
                persisted, caught_up = await _wait_persisted(memory.observation_counts, count)
                latency = caught_up - last_write
                rescued = await _rescan(index_sync) if persisted < count else 0
                total, _ = await memory.observation_counts()
            finally:
                stop.set()
                await asyncio.gather(writer, watching)
                await memory.forget()

    writes_s = last_write - write_start
    print(f"wrote {count} files in {writes_s:.2f} s (baseline: the writes themselves)")
    print(f"persisted by the watcher: {persisted}; {latency:.2f} s after the last write")
    print(f"missed by events, caught by the rescan: {rescued}; in the graph now: {total}")
    print(f"ratio latency / write time: {latency / writes_s:.2f}")
    ok = persisted + rescued == count and latency <= 5.0
    print(f"{verdict(ok)}  all {count} persisted within 5 s of the last write")
    return ok


async def _wait_persisted(
    counts: Callable[[], Awaitable[tuple[int, int]]], expected: int
) -> tuple[int, float]:
    """Poll the graph until every file is in or the count stops growing for a while."""
    last, last_change = -1, time.perf_counter()
    deadline = last_change + TIMEOUT_S
    while time.perf_counter() < deadline:
        total, _ = await counts()
        now = time.perf_counter()
        if total != last:
            last, last_change = total, now
        if total >= expected or now - last_change > SETTLE_S:
            return total, last_change
        await asyncio.sleep(0.02)
    return last, last_change


async def _rescan(index_sync: IndexSync) -> int:
    result = await index_sync.run()
    await index_sync.ingestor.wait_idle(60)
    return len(result.observations) if result else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=5000)
    args = parser.parse_args()
    asyncio.run(run(args.files))


if __name__ == "__main__":
    main()
