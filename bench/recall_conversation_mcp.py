"""``bench.recall_quality --conversation FILE... --through-mcp``: told to ``nous mcp`` alone.

What a user running only Claude Code gets: a real ``nous mcp`` process (the
official MCP client over stdio, no daemon) is told every turn of a
conversation with ``remember`` (as one client session tells it: the source is
the conversation's session, ``conversation D3`` for the turn ``D3:7``), embeds
the facts itself in the background, and the bench waits until nothing is
pending. Then each question (category 5 left out, as the in-process mode) is
asked with the ``recall`` tool; a hit is an evidence turn shown as an item
(never as the context shown after another one), against a plain BM25 returning
as many turns. Target (issue 27): at least 1.3x.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.common import bench_settings, connected, scratch_agent
from bench.recall_conversation import BM25, read_conversation, report_door, turns_of
from bench.recall_quality_mcp import WAIT_LIMIT_S, nous_mcp, pending, tool
from cognition.text import plain_text
from graph.store.memory import Memory


async def run_conversations_through_mcp(files: list[Path], threads: int) -> bool:
    """Measure every conversation in ``files`` through ``nous mcp``; True when at 1.3x or more."""
    settings = bench_settings()
    door: Counter[str] = Counter()
    async with connected(settings) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}; through nous mcp alone (no daemon)")
        for path in files:
            async with scratch_agent(driver, "conversation-mcp") as memory:
                with tempfile.TemporaryDirectory() as tmp:
                    door.update(await _measure(memory, path, Path(tmp), threads))
    return report_door(door, "nous mcp recall", files)


async def _measure(memory: Memory, path: Path, folder: Path, threads: int) -> Counter[str]:
    conversation = await read_conversation(path)
    turns = turns_of(conversation)
    start = time.perf_counter()
    async with nous_mcp(memory.agent_id, folder, threads) as session:
        for dia_id, text in turns:
            source = f"conversation {dia_id.split(':')[0]}"
            said = await tool(session, "remember", kind="fact", text=text, source=source)
            assert said.startswith("Remembered fact "), said
        told = time.perf_counter() - start
        for _ in range(WAIT_LIMIT_S):
            if not await pending(memory):
                break
            await asyncio.sleep(1.0)
        waited, left = time.perf_counter() - start, await pending(memory)
        print(f"{path.name}: {len(turns)} turns told in {told:.1f} s, embedded by nous mcp "
              f"after {waited:.1f} s; {left} pending")  # fmt: skip
        found = await _ask(session, conversation["qa"], turns)
    print(f"{path.name}: evidence shown for {found['hit']}/{found['questions']}, "
          f"plain BM25 as many turns {found['bm25']}")  # fmt: skip
    return found


async def _ask(session: Any, questions: list[dict[str, Any]],
               turns: list[tuple[str, str]]) -> Counter[str]:  # fmt: skip
    bm25 = BM25([text for _, text in turns])
    where = {dia_id: n for n, (dia_id, _) in enumerate(turns)}
    found: Counter[str] = Counter()
    for qa in questions:
        evidence = {where[e] for e in qa.get("evidence", []) if e in where}
        if qa.get("category") == 5 or not evidence:
            continue
        answer = await tool(session, "recall", question=qa["question"])
        # A turn counts as shown as an item, never as the context shown after another one.
        items = "\n".join(line.split(" (after: ")[0] for line in answer.splitlines())
        shown = [n for n, (_, text) in enumerate(turns) if plain_text(text, 400) in items]
        found["questions"] += 1
        found["shown"] += len(shown)
        found["hit"] += bool(evidence & set(shown))
        found["bm25"] += bool(evidence & set(bm25.rank(qa["question"])[: len(shown)]))
    return found
