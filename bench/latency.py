"""Decision latency for a critical observation, with a 30 s action running and with none.

    python -m bench.latency [--tries 20] [--action-s 30] [--interval-s 0.1]

Builds the loop with the scheduler's own ``build_loop`` (rules reasoner,
live executors, the Claude Code CLI replaced by the stand-in
``tests/bin/claude``, told to sleep ``--action-s`` seconds) and drives
``tick()`` every ``--interval-s`` seconds, as the scheduler's decision job
does every ``schedule.decision_interval_s``. Each try writes one critical
observation (a ``process_failed``) and measures the time from its ``at`` to
the ``at`` of the decision that considered it, both as the graph records
them. First with nothing running (the baseline), then while one action runs
(an intake note whose stand-in sleeps). Prints p50 and max of each, and
their ratio.

Target (issue 6): with the action running, p50 and max at most 1.5 times the
baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import tempfile
import time
from contextlib import AsyncExitStack
from datetime import datetime
from pathlib import Path

from bench.common import bench_settings, connected, percentile, verdict
from bench.rig import open_loop
from cognition.loop import DecisionLoop
from graph.models import Observation, ObservationType, Urgency, new_id
from graph.store.memory import Memory

STAND_IN = Path(__file__).resolve().parents[1] / "tests" / "bin" / "claude"
TARGET_RATIO = 1.5


async def _ticking(loop: DecisionLoop, interval_s: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        await loop.tick()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval_s)


async def _latency_ms(memory: Memory, timeout_s: float = 30.0) -> float:
    """Write one critical observation; wait for its decision; decision.at - observation.at."""
    observation = Observation(
        agent_id=memory.agent_id,
        type=ObservationType.PROCESS_FAILED,
        urgency=Urgency.CRITICAL,
        metadata={"error": f"nightly job {new_id()} exited 1"},
    )
    await memory.record_observations([observation])
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        rows = await memory.read("bench/decision_for_observation", observation_id=observation.id)
        if rows:
            at = rows[0]["at"]
            decided: datetime = at.to_native() if hasattr(at, "to_native") else at
            return (decided - observation.at).total_seconds() * 1000
        await asyncio.sleep(0.01)
    raise TimeoutError(f"no decision for a critical observation within {timeout_s:.0f} s")


async def _until_an_action_runs(loop: DecisionLoop, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not len(loop.actions):
        if time.monotonic() > deadline:
            raise RuntimeError("the long action did not start")
        await asyncio.sleep(0.01)


async def _series(memory: Memory, tries: int) -> list[float]:
    return [await _latency_ms(memory) for _ in range(tries)]


async def run(tries: int, action_s: float, interval_s: float) -> bool:
    settings = bench_settings()
    settings.reasoner = "rules"
    settings.executors.dry_run = False
    settings.executors.claude_binary = str(STAND_IN)
    async with connected(settings) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}")
        memory = Memory(driver, f"bench-latency-{new_id().lower()}")
        with tempfile.TemporaryDirectory(prefix="nous-latency-") as tmp:
            root = Path(tmp) / "root"
            (root / "_intake").mkdir(parents=True)
            script = Path(tmp) / "claude.json"
            script.write_text(json.dumps({"sleep_s": action_s}))
            settings.watch.root = root
            env = {"PATH": os.environ.get("PATH", ""), "FAKE_CLAUDE_SCRIPT": str(script)}
            stack = AsyncExitStack()  # the LLM client's close and the episode's end
            rig = await open_loop(stack, settings, memory, root, env)
            ingestor, index_sync, loop = rig.ingestor, rig.index_sync, rig.loop
            stop = asyncio.Event()
            ticker = asyncio.create_task(_ticking(loop, interval_s, stop))
            try:
                idle = await _series(memory, tries)
                (root / "_intake" / "long.md").write_text("a note whose action takes a while\n")
                await index_sync.run()
                await ingestor.flush()
                began = time.monotonic()
                await _until_an_action_runs(loop)
                busy = await _series(memory, tries)
                still = len(loop.actions) > 0
                busy_for = time.monotonic() - began
            finally:
                stop.set()
                await ticker
                await loop.stop(0.0)
                await stack.aclose()
                await memory.forget()
    return _report(idle, busy, still, busy_for, action_s, interval_s)


def _report(
    idle: list[float],
    busy: list[float],
    still: bool,
    busy_for: float,
    action_s: float,
    interval_s: float,
) -> bool:
    print(f"ticks every {interval_s:g} s; {len(idle)} tries each")
    rows = [("nothing running", idle), (f"one {action_s:g} s action running", busy)]
    for label, values in rows:
        p50, worst = percentile(values, 50), max(values)
        print(f"  {label:<28} p50 {p50:7.1f} ms   max {worst:7.1f} ms")
    p50_ratio = percentile(busy, 50) / percentile(idle, 50)
    max_ratio = max(busy) / max(idle)
    print(f"  action still running after its {len(busy)} tries ({busy_for:.1f} s): {still}")
    ok = still and p50_ratio <= TARGET_RATIO and max_ratio <= TARGET_RATIO
    print(
        f"ratio p50 {p50_ratio:.2f}, max {max_ratio:.2f} (target <= {TARGET_RATIO}): {verdict(ok)}"
    )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=20)
    parser.add_argument("--action-s", type=float, default=30.0)
    parser.add_argument("--interval-s", type=float, default=0.1)
    args = parser.parse_args()
    asyncio.run(run(args.tries, args.action_s, args.interval_s))


if __name__ == "__main__":
    main()
