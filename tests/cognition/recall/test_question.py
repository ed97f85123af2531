"""The one door for a question or a prompt: only what can help, above a floor; nothing else.

The memory is the one the issue found a prompt drowning in: WAIT churn
("no template"), ACT decisions that never ran, and pattern statistics about
the very file the prompt names; beside them, the file's real history (changes
by a person and by the agent's own executions) and one fact that answers.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

import scheduler
from cognition.frames.spec import SEED_FRAMES
from cognition.recall.hybrid import HybridRecall, RecalledItem
from cognition.recall.question import MAX_ITEMS, QuestionRecall
from cognition.recall.rank import above_floor, diversify, prefer_recent
from graph.models import DecisionType, Observation, ObservationType, new_id
from graph.server.finder import Neo4jEndpoint
from graph.settings import EmbeddingSettings
from graph.store.memory import Memory
from scheduler.claude.prompt_recall import PromptRecall
from tests.support.recall_seed import T0, Seeder, seeding

PATH = "sqlite_utils/db.py"
PROMPT = (
    "The transform() method loses indexes when it recreates a table. "
    f"Fix it in {PATH} and add a test."
)
FIX = "transform() must copy the table's indexes when it recreates the table"


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


async def _churn(seed: Seeder) -> None:
    """Decisions that did nothing, and raw pattern statistics, all about the file."""
    for minute in range(12):
        await seed.decision(
            PATH, type=DecisionType.WAIT, template=None, confidence=0.45, minutes=minute,
            reasoning=f"wait (no template) for {PATH}: the table transform indexes changed",
        )  # fmt: skip
    for minute in range(12, 15):  # an ACT that found no template and never ran
        await seed.decision(
            PATH, type=DecisionType.ACT, template=None, minutes=minute,
            reasoning=f"act on {PATH}: transform table indexes, no template",
        )  # fmt: skip
    await seed.nodes(
        "patterns",
        *({"key": f"code:file_modified:wait:{n}", "total": 16, "successes": 16,
           "avg_confidence": 0.45} for n in range(5)),
    )  # fmt: skip


async def _history(memory: Memory, seed: Seeder) -> str:
    """Three changes by a person and two by the agent's execution; the execution's id."""
    acted = await seed.decision(PATH, outcome_success=True, outcome="tests pass", minutes=20)
    [execution] = await seed.nodes(
        "executions",
        {"decision_id": acted, "target": "claude_code", "success": True, "dry_run": False},
    )
    changes = [
        Observation(
            agent_id=memory.agent_id,
            type=ObservationType.FILE_MODIFIED,
            path=PATH,
            at=T0 + timedelta(hours=n),
            caused_by=execution if n >= 3 else None,
        )
        for n in range(5)
    ]
    await memory.record_observations(changes)
    return execution


async def test_a_prompt_about_a_file_gets_its_changes_and_no_churn(
    memory: Memory, seed: Seeder, tmp_path: Path
) -> None:
    (tmp_path / "sqlite_utils").mkdir()
    (tmp_path / PATH).write_text("def transform(): ...\n")
    await _churn(seed)
    execution = await _history(memory, seed)
    await seed.nodes("facts", {"content": FIX, "confirmations": 1})

    context = await PromptRecall(memory, tmp_path)(PROMPT, SEED_FRAMES[0], new_id())

    assert f"{PATH}: changed 5 times (2 by the agent, 3 by a person)" in context
    assert f"by the agent (execution {execution})" in context and "by a person" in context
    assert FIX in context
    for churn in ("wait", "no template", "16/16", "0.45", "pattern", "code:file_modified"):
        assert churn not in context.lower(), churn


async def test_nothing_relevant_gives_nothing_at_all(
    memory: Memory, seed: Seeder, tmp_path: Path
) -> None:
    await _churn(seed)
    await seed.nodes("facts", {"content": FIX, "confirmations": 1})
    frame = SEED_FRAMES[0]
    assert await PromptRecall(memory, tmp_path)("What a lovely morning!", frame, new_id()) == ""
    answer = await QuestionRecall(HybridRecall(memory, None, EmbeddingSettings())).answer(
        "sqlite indexes after a transform"  # churn shares these words; a WAIT is never shown
    )
    assert FIX in answer.text and "wait" not in answer.text.lower()
    assert answer.items == {"facts": 1}


async def test_an_answer_shows_at_most_max_items_best_first(
    memory: Memory, seed: Seeder, tmp_path: Path
) -> None:
    await seed.nodes(
        "facts", *({"content": f"the nightly backup {n} failed: disk full"} for n in range(12))
    )
    answer = await QuestionRecall(HybridRecall(memory, None, EmbeddingSettings())).answer(
        "why did the nightly backup fail?"
    )
    assert answer.items == {"facts": MAX_ITEMS}
    assert answer.text.count("\n- [fact") == MAX_ITEMS


def _item(id: str, text: str, score: float, found_by: tuple[str, ...] = ("words",),
          at: str | None = None) -> RecalledItem:  # fmt: skip
    return RecalledItem(label="Fact", id=id, text=text, score=score, found_by=found_by, at=at)


def test_the_floor_keeps_what_a_method_found_relevant() -> None:
    items = [
        _item("a", "the nightly backup failed", 0.5),
        _item("b", "lunch was late on the backup day", 0.4),  # one word of three
        _item("c", "a paraphrase only meaning finds", 0.3, ("meaning",)),
        _item("d", "a weak neighbour by meaning", 0.2, ("meaning",)),
        _item("e", "the decision on the same file", 0.1, ("graph",)),
    ]
    kept = above_floor(items, "why did the nightly backup fail?", {"c": 0.93, "d": 0.85})
    assert [i.id for i in kept] == ["a", "c", "e"]


def test_diversity_and_recency_reorder_only_when_weighted() -> None:
    items = [
        _item("a", "disk full on the backup volume", 0.9, at="2026-01-01T00:00:00Z"),
        _item("b", "disk full on the backup volume again", 0.8, at="2026-01-02T00:00:00Z"),
        _item("c", "the certificate expired", 0.7, at="2026-01-03T00:00:00Z"),
    ]
    assert [i.id for i in diversify(items, 0.0, 3)] == ["a", "b", "c"]
    assert [i.id for i in diversify(items, 1.0, 3)] == ["a", "c", "b"]  # a near copy waits
    assert [i.id for i in prefer_recent(items, 0.0)] == ["a", "b", "c"]
    assert next(i.id for i in prefer_recent(items, 1.0)) == "c"


def test_the_entry_points_are_gone_from_the_entry_package() -> None:
    # Issue 26: `grep -rn "recall_question\|recall_text" scheduler` prints nothing.
    package = Path(scheduler.__file__).parent
    for source in package.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert "recall_question" not in text and "recall_text" not in text, source
