"""Recall latency as memory grows: Recall.build for one decision at 10k, 100k and 1M nodes.

    python -m bench.recall [--sizes 10000,100000,1000000] [--runs 200] [--warmup 30]
                           [--frame task] [--batch 1000]

For each size, one agent's memory is filled with synthetic history
(:mod:`bench.recall_data`: decisions with observations, steps, lessons and
patterns; facts, episodes, procedures, censors, goals, heuristics, working
memory) through batched ``UNWIND`` writes in ``cypher/bench/``. Then
``Recall.build`` runs for one observation at a time about a file that has
history, with the frame's budget and a working-memory session, after a
warm-up; p50 and p95 are printed per size, and the ratio of p95 at the
largest size to p95 at the smallest. The agents stay while the larger ones
are measured (several agents share one Neo4j, as in production); at the end
the smallest agent is measured again beside the others, and every agent the
run created is deleted in chunks.

Hybrid recall (issue 19) is measured beside it at each size: every node with
text gets a synthetic vector through the product's own pending/write queries
(:mod:`bench.recall_vectors`), then ``HybridRecall.search`` and ``fuse`` (full-text, vector
and graph proximity, fused) runs with a ready query vector, once the machine
is quiet again (Neo4j merges its index segments in the background after a
large write: minutes of CPU for a vector index; the wait is printed); the
default model's time to embed one question is printed on its own line.
``--no-vectors`` skips all of it.

Targets (issue 5): p95 <= 20 ms at 1M nodes, p95(1M) / p95(10k) <= 1.5.
Targets (issue 19, hybrid): the same, and the smallest agent beside the larger
ones within 1.2x of it alone.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.common import bench_settings, connected, machine_quiet, percentile, report_checks
from bench.recall_data import SESSION, History
from bench.recall_vectors import (
    SyntheticVectors,
    fill_vectors,
    measure_hybrid,
    measure_parts,
    query_embedding_ms,
)
from cognition.context.render import render_context
from cognition.frames.spec import SEED_FRAMES
from cognition.recall.gather import Recall
from cognition.schemas import FileView, TemplateOption
from graph.models import Category, Observation, ObservationType, new_id
from graph.models.frame import FrameSpec
from graph.store.driver import GraphDriver
from graph.store.memory import Memory

TARGET_P95_MS = 20.0
TARGET_RATIO = 1.5
TARGET_BESIDE = 1.2
OPTIONS = [
    TemplateOption(name="analyze_knowledge", description="analyse the note", target="dry_run"),
    TemplateOption(name="update_index", description="refresh the index", target="internal"),
]


def templates_for(observation: Observation, file: FileView | None) -> list[TemplateOption]:
    """The benchmark's template matcher: two options, whatever the file."""
    return OPTIONS


async def fill(memory: Memory, history: History, batch: int) -> float:
    """Write the agent's synthetic memory; return the seconds it took."""
    start = time.perf_counter()
    await memory.write("bench/standing_memory", **history.standing())
    for rows in history.decision_rows(batch):
        await memory.write("bench/decision_history", rows=rows)
    await memory.write_rows("bench/facts", history.fact_rows(), batch_size=batch * 5)
    await memory.write_rows("bench/episodes", history.episode_rows(), batch_size=batch)
    return time.perf_counter() - start


def observations(agent_id: str, history: History, root: Path, count: int) -> list[Observation]:
    """``count`` observations about files with history, each file written under ``root``."""
    rng = random.Random(3)
    out = []
    for f in rng.sample(range(history.files), min(count, history.files)):
        path, category = history.path(f)
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"# {path}\n" + "a line of the note\n" * 100)
        obs_type = ObservationType.FILE_MODIFIED
        out.append(
            Observation(agent_id=agent_id, type=obs_type, category=Category(category), path=path)
        )
    return out


async def measure(
    recall: Recall, batch: list[Observation], frame: FrameSpec, runs: int, warmup: int
) -> tuple[list[float], int]:
    """Milliseconds per Recall.build, after ``warmup`` unmeasured runs; and tokens rendered."""
    timings: list[float] = []
    tokens = 0
    for n in range(warmup + runs):
        observation = batch[n % len(batch)]
        start = time.perf_counter()
        context = await recall.build([observation], frame, session_id=SESSION)
        elapsed = (time.perf_counter() - start) * 1000
        if n >= warmup:
            timings.append(elapsed)
            tokens = max(tokens, render_context(context, identity="Nous").token_estimate)
    return timings, tokens


async def run(
    sizes: list[int], runs: int, warmup: int, frame_name: str, batch: int, vectors: bool = True
) -> bool:
    frame = next(f for f in SEED_FRAMES if f.name == frame_name)
    settings = bench_settings()
    p95s: dict[int, float] = {}
    hybrid: dict[int, float] = {}
    provider = SyntheticVectors()
    if vectors:
        p50, p95 = await query_embedding_ms()
        print(f"query embedding (default model, one question): p50 {p50:.1f} ms  p95 {p95:.1f} ms")
    async with connected(settings) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}; frame {frame.name}, {runs} runs after {warmup}")
        memories: list[Memory] = []
        try:
            with tempfile.TemporaryDirectory() as tmp:
                first: tuple[Recall, list[Observation]] | None = None
                small: tuple[Memory, History] | None = None
                for size in sizes:
                    memory = Memory(driver, f"bench-recall-{new_id().lower()}-{size}")
                    memories.append(memory)
                    history = History(memory.agent_id, size)
                    seconds = await fill(memory, history, batch)
                    nodes = await count_nodes(driver, memory.agent_id)
                    root = Path(tmp) / str(size)
                    batch_obs = observations(memory.agent_id, history, root, runs)
                    recall = Recall(memory, root, templates_for)
                    timings, tokens = await measure(recall, batch_obs, frame, runs, warmup)
                    p95s[size] = report(f"{nodes:>9,} nodes", timings, tokens)
                    print(f"           (filled in {seconds:.1f} s)")
                    if vectors:
                        start = time.perf_counter()
                        count = await fill_vectors(memory, provider)
                        took = time.perf_counter() - start
                        print(f"           ({count:,} vectors written in {took:.1f} s; "
                              f"{await machine_quiet()})")  # fmt: skip
                        timed = await measure_hybrid(memory, history, provider, runs, warmup)
                        hybrid[size] = report_hybrid(f"{nodes:>9,} nodes", timed)
                        parts = await measure_parts(memory, history, provider, 50)
                        print("           (each alone, p50: " + ", ".join(
                            f"{k} {v:.2f} ms" for k, v in parts.items()) + ")")  # fmt: skip
                    first = first or (recall, batch_obs)
                    small = small or (memory, history)
                if first is not None and len(sizes) > 1:
                    timings, tokens = await measure(first[0], first[1], frame, runs, warmup)
                    report(f"{sizes[0]:>9,} again beside the larger agents", timings, tokens)
                if vectors and small is not None and len(sizes) > 1:
                    timed = await measure_hybrid(small[0], small[1], provider, runs, warmup)
                    beside = report_hybrid(f"{sizes[0]:>9,} again beside the larger", timed)
                    parts = await measure_parts(small[0], small[1], provider, 50)
                    print("           (each alone, p50: " + ", ".join(
                        f"{k} {v:.2f} ms" for k, v in parts.items()) + ")")  # fmt: skip
                    hybrid[-1] = beside
        finally:
            for memory in memories:
                start = time.perf_counter()
                deleted = await memory.forget(chunk=20_000)
                print(f"deleted {deleted:,} nodes of {memory.agent_id} in "
                      f"{time.perf_counter() - start:.1f} s")  # fmt: skip
    structural = verdicts(p95s)
    return (hybrid_verdicts(hybrid) if vectors else True) and structural


def report_hybrid(label: str, timings: list[float]) -> float:
    p50, p95 = percentile(timings, 50), percentile(timings, 95)
    print(f"{label}: hybrid p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  (query vector given)")
    return p95


def hybrid_verdicts(p95s: dict[int, float]) -> bool:
    """Hybrid targets: p95 at the largest size, its ratio to the smallest, the small agent."""
    sizes = sorted(s for s in p95s if s > 0)
    if not sizes:
        return False
    smallest, largest = sizes[0], sizes[-1]
    ratio = p95s[largest] / p95s[smallest]
    checks = [
        (p95s[largest] <= TARGET_P95_MS,
         f"hybrid p95 at {largest:,} nodes {p95s[largest]:.2f} ms (target <= {TARGET_P95_MS:.0f})"),
        (ratio <= TARGET_RATIO,
         f"hybrid ratio p95({largest:,}) / p95({smallest:,}) = {ratio:.2f} "
         f"(target <= {TARGET_RATIO})"),
    ]  # fmt: skip
    if -1 in p95s:
        beside = p95s[-1] / p95s[smallest]
        checks.append((beside <= TARGET_BESIDE,
                       f"hybrid {smallest:,} beside the larger / alone = {beside:.2f} "
                       f"(target <= {TARGET_BESIDE})"))  # fmt: skip
    return report_checks(checks)


async def count_nodes(driver: GraphDriver, agent_id: str) -> int:
    """How many nodes the agent has (from the bench's own count query)."""
    rows = await driver.read("bench/count_agent_nodes", agent_id=agent_id)
    return int(rows[0]["nodes"])


def report(label: str, timings: list[float], tokens: int) -> float:
    p50, p95 = percentile(timings, 50), percentile(timings, 95)
    print(f"{label}: recall p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  (context ~{tokens:,} tokens)")
    return p95


def verdicts(p95s: dict[int, float]) -> bool:
    if not p95s:
        return False
    smallest, largest = min(p95s), max(p95s)
    ratio = p95s[largest] / p95s[smallest]
    checks = [
        (p95s[largest] <= TARGET_P95_MS,
         f"p95 at {largest:,} nodes {p95s[largest]:.2f} ms (target <= {TARGET_P95_MS:.0f} ms)"),
        (ratio <= TARGET_RATIO,
         f"ratio p95({largest:,}) / p95({smallest:,}) = {ratio:.2f} (target <= {TARGET_RATIO})"),
    ]  # fmt: skip
    return report_checks(checks)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--frame", default="task", choices=[f.name for f in SEED_FRAMES])
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--no-vectors", action="store_true", help="structural recall only")
    args = parser.parse_args()
    sizes = sorted(int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip())
    asyncio.run(run(sizes, args.runs, args.warmup, args.frame, args.batch, not args.no_vectors))


if __name__ == "__main__":
    main()
