"""``nous mcp`` alone (no daemon) writes the vectors of what it is told, and recalls by meaning."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from cognition.embeddings import EMBEDDED_MODEL
from graph.store.embeddings import EmbeddingStore
from graph.store.memory import Memory
from tests.scheduler.claude.conftest import Opener
from tests.scheduler.claude.mcp_client import EMPTY, call

TARGET = "Grandma's apple pie recipe needs three tablespoons of cinnamon."
# No word in common with the target: only its meaning can find it.
QUESTION = "How much spice goes into the baked fruit dessert of my nan?"
TOPICS = ["nginx", "Postgres", "the nightly backup", "the login page", "the payment API",
          "the mail server", "DNS", "the test suite", "Kubernetes", "the Redis cache"]  # fmt: skip
FAULTS = ["failed", "was slow", "crashed", "timed out", "lost files"]
CAUSES = ["a full disk", "an expired certificate", "a typo in the config", "a power cut",
          "a memory leak", "a race condition", "clock skew", "a stale cache"]  # fmt: skip


def fillers(count: int) -> list[str]:
    """``count`` distinct facts about operations, none about cooking."""
    out = [
        f"On day {n}, {TOPICS[n % 10]} {FAULTS[n // 10 % 5]} after {CAUSES[n // 50 % 8]}."
        for n in range(count)
    ]
    assert len(set(out)) == count
    return out


def embeddings_status(agent_id: str, env: dict[str, str], cwd: Path) -> dict[str, object]:
    """``nous embeddings status --json`` for the agent, as a user would run it."""
    done = subprocess.run(
        [sys.executable, "-m", "scheduler.cli", "embeddings", "status", "--json",
         "--config", str(EMPTY), "--agent-id", agent_id],
        env=env, cwd=cwd, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    status: dict[str, object] = json.loads(done.stdout)
    return status


async def test_four_hundred_facts_told_without_a_daemon_are_recalled_by_meaning(
    nous_mcp: Opener, memory: Memory, neo4j_env: dict[str, str], project: Path
) -> None:
    facts = fillers(399)
    facts.insert(217, TARGET)
    async with nous_mcp() as session:
        for fact in facts:
            await call(session, "remember", kind="fact", text=fact, source="a test")
        for _ in range(600):  # the server embeds in the background: wait for it (no daemon)
            rows = await EmbeddingStore(memory).status(EMBEDDED_MODEL)
            if sum(r.pending for r in rows) == 0:
                break
            await asyncio.sleep(0.5)
        answer = await call(session, "recall", question=QUESTION)
    status = embeddings_status(memory.agent_id, neo4j_env, project)
    [line] = [x for x in answer.splitlines() if "cinnamon" in x]
    assert "meaning" in line and "words" not in line, answer  # found by meaning alone
    assert status["pending"] == 0, status
    [facts_row] = [r for r in status["labels"] if r["label"] == "Fact"]  # type: ignore[attr-defined]
    assert facts_row["current"] == 400 and facts_row["pending"] == 0, facts_row


async def test_a_fact_just_told_is_found_by_meaning_at_the_next_recall(
    nous_mcp: Opener, tmp_path: Path
) -> None:
    config = tmp_path / "nous.yaml"
    config.write_text("embeddings:\n  nice: 0\n")  # a loaded test machine starves a niced engine
    async with nous_mcp(config=config) as session:
        before = await call(session, "recall", question=QUESTION)  # reads the counts: none yet
        await call(session, "remember", kind="fact", text=TARGET, source="a test")
        after = await call(session, "recall", question=QUESTION)
    assert "cinnamon" not in before
    [line] = [x for x in after.splitlines() if "cinnamon" in x]
    assert "meaning" in line, after
