"""``bench.recall_quality --through-mcp``: the labelled set, written and embedded by ``nous mcp``.

Two agents get the same ``--items`` incidents, as facts:

* the daemon's path: written in this process, embedded by the daemon's
  vector job (:class:`~cognition.recall.vectors.VectorJob`, a backfill);
* ``nous mcp`` alone: a real ``nous mcp`` process (the official MCP client
  over stdio, no daemon running) is told every incident with ``remember``,
  and embeds them itself, in the background; the bench only waits until
  nothing is pending.

Then the same questions are asked of both, two ways: by the bench's own
ranking stages (``ask``: words, meaning, fused; recall@5 and MRR, as the
default mode), and through ``nous mcp``'s ``recall`` tool (a server per
agent), scored by where the answer's text first appears among the
incidents the tool's answer shows. The two paths' figures are printed side
by side; the check is that they are equal.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

from bench.common import bench_settings, connected, report_checks
from bench.recall_quality_data import Incident, Question, incidents, questions
from bench.recall_stages import PRODUCT, stage_rankings
from cognition.embeddings import EMBEDDED_MODEL, EmbeddedE5, Embeddings
from cognition.recall.hybrid import HybridRecall
from cognition.recall.vectors import VectorJob
from graph.models import new_id, utc_now
from graph.settings import EmbeddingSettings
from graph.store.memory import Memory

METHODS = ("words", "meaning", PRODUCT)  # each method alone, and the question's ranking

PATHS = ("daemon", "mcp")
Ranks = dict[str, list[int]]
Key = tuple[int, int, int]
WAIT_LIMIT_S = 3600  # for nous mcp's background vectors
REMEMBERED = re.compile(r"Remembered fact (\S+) ")


@asynccontextmanager
async def nous_mcp(agent_id: str, folder: Path, threads: int) -> AsyncIterator[ClientSession]:
    """A ``nous mcp`` process for ``agent_id`` (settings in ``folder``), as a client starts it."""
    config = folder / "nous.yaml"
    # nice 0 on both paths: on a loaded machine a niced engine is starved; vectors are the same.
    config.write_text(
        f"embeddings:\n  threads: {threads}\n  nice: 0\nmcp:\n  tool_timeout_s: 120\n"
    )
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "scheduler.cli", "mcp", "--config", str(config), "--agent-id", agent_id],
        env=dict(os.environ),
        cwd=folder,
    )
    with (folder / "mcp.err").open("w") as err:
        async with (
            stdio_client(params, errlog=err) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


async def tool(session: ClientSession, name: str, **arguments: object) -> str:
    """One tool call's text; an error result stops the bench."""
    result = await session.call_tool(name, dict(arguments))
    [block] = result.content
    assert isinstance(block, TextContent)
    if result.isError:
        raise RuntimeError(f"nous mcp {name}: {block.text}")
    return block.text


async def pending(memory: Memory) -> int:
    """Nodes of the agent that still wait for a vector."""
    rows = await memory.embeddings.status(EMBEDDED_MODEL)
    return sum(r.pending for r in rows)


async def fill_facts(memory: Memory, told: list[Incident]) -> dict[Key, str]:
    """The daemon's path: every incident a Fact, written here (as the default mode's fill)."""
    now, ids, rows = utc_now(), {}, []
    for incident in told:
        ids[incident.key] = new_id()
        rows.append({"agent_id": memory.agent_id, "id": ids[incident.key], "at": now,
                     "content": incident.text, "confirmations": 1})  # fmt: skip
    await memory.write_rows("bench/facts", rows, batch_size=1000)
    await memory.await_text_indexes()
    return ids


async def tell_through_mcp(
    memory: Memory, told: list[Incident], folder: Path, threads: int
) -> tuple[dict[Key, str], float]:
    """Every incident through ``remember``; wait until ``nous mcp`` embedded them.

    Returns the facts' ids (from the tool's answers) and the seconds it took.
    """
    start = time.perf_counter()
    ids = {}
    async with nous_mcp(memory.agent_id, folder, threads) as session:
        for incident in told:
            said = await tool(session, "remember", kind="fact", text=incident.text, source="bench")
            found = REMEMBERED.search(said)
            assert found, said
            ids[incident.key] = found.group(1)
        for _ in range(WAIT_LIMIT_S):
            if not await pending(memory):
                break
            await asyncio.sleep(1.0)
    return ids, time.perf_counter() - start


async def rank_by_stages(memory: Memory, embeddings: Embeddings, asked: list[Question],
                         answer_of: dict[Key, str]) -> Ranks:  # fmt: skip
    """The bench's own ranking stages over ``memory`` (as the default mode); ranks per method."""
    hybrid = HybridRecall(memory, embeddings, EmbeddingSettings())
    ranks: Ranks = defaultdict(list)
    for question in asked:
        vector = await embeddings.query(question.text)
        assert vector is not None
        found = await stage_rankings(hybrid, question.text, vector)
        answer = answer_of[question.answer]
        for method in METHODS:
            ranks[method].append(found[method].index(answer) + 1 if answer in found[method] else 0)
    return ranks


async def rank_by_tool(memory: Memory, asked: list[Question], text_of: dict[Key, str],
                       folder: Path, threads: int) -> list[int]:  # fmt: skip
    """Where each answer's text first appears among the incidents ``recall`` shows (0: absent)."""
    ranks = []
    async with nous_mcp(memory.agent_id, folder, threads) as session:
        for question in asked:
            shown = await tool(session, "recall", question=question.text)
            order = [t for _, t in sorted((shown.find(t), t) for t in text_of.values()
                                          if t in shown)]  # fmt: skip
            target = text_of[question.answer]
            ranks.append(order.index(target) + 1 if target in order else 0)
    return ranks


def figures(ranks: list[int]) -> tuple[float, float]:
    """recall@5 and MRR of a list of ranks (0: not found)."""
    return (sum(1 for r in ranks if 0 < r <= 5) / len(ranks),
            sum(1 / r for r in ranks if r > 0) / len(ranks))  # fmt: skip


async def run(items: int, count: int, threads: int) -> bool:
    """Fill both agents, ask both, print the figures side by side; True when they are equal."""
    settings = bench_settings()
    told = incidents(items)
    asked = questions(told, count)
    text_of = {i.key: i.text for i in told}
    async with connected(settings) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}")
        run_id = new_id().lower()
        agents = {path: Memory(driver, f"bench-quality-{path}-{run_id}") for path in PATHS}
        embeddings = Embeddings(EmbeddedE5(threads=threads, nice=0), cache_size=0)
        try:
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                stored = {"daemon": await fill_facts(agents["daemon"], told)}
                job = VectorJob(agents["daemon"], embeddings, EmbeddingSettings(max_per_run=10_000),
                                folder)  # fmt: skip
                start = time.perf_counter()
                written = await job.backfill()
                print(f"daemon's path: {written} vectors by the vector job in "
                      f"{time.perf_counter() - start:.1f} s")  # fmt: skip
                stored["mcp"], seconds = await tell_through_mcp(
                    agents["mcp"], told, folder, threads
                )
                print(f"nous mcp alone: {items} facts told and embedded in {seconds:.1f} s")
                return await _compare(agents, embeddings, asked, stored, text_of, folder, threads)
        finally:
            for memory in agents.values():
                await memory.forget()


async def _compare(agents: dict[str, Memory], embeddings: Embeddings, asked: list[Question],
                   stored: dict[str, dict[Key, str]],
                   text_of: dict[Key, str], folder: Path, threads: int) -> bool:  # fmt: skip
    stages = {p: await rank_by_stages(agents[p], embeddings, asked, stored[p]) for p in PATHS}
    tools = {p: await rank_by_tool(agents[p], asked, text_of, folder, threads) for p in PATHS}
    print(f"{'method':<22} " + "  ".join(f"{p + ' R@5 / MRR':>22}" for p in PATHS))
    rows: dict[str, dict[str, tuple[float, float]]] = {}
    for method in METHODS:
        rows[method] = {p: figures(stages[p][method]) for p in PATHS}
    rows["recall tool (answer)"] = {p: figures(tools[p]) for p in PATHS}
    for name, by_path in rows.items():
        cells = "  ".join(f"{by_path[p][0]:>12.3f} / {by_path[p][1]:.3f}" for p in PATHS)
        print(f"{name:<22} {cells}")
    checks = [
        (abs(by_path["daemon"][0] - by_path["mcp"][0]) < 1e-9,
         f"{name}: recall@5 through nous mcp alone {by_path['mcp'][0]:.3f} equals the daemon "
         f"path's {by_path['daemon'][0]:.3f}")
        for name, by_path in rows.items()
    ]  # fmt: skip
    return report_checks(checks)
