"""The one door that answers a question from memory: the MCP ``recall`` tool and every prompt.

:class:`QuestionRecall` is what a client's question (``nous mcp``'s
``recall``) and a Claude Code prompt (``UserPromptSubmit`` → ``pre_turn``)
both ask. It shows only what can help:

* what recently changed in the files the question names: how often, when,
  and by whom (the agent: the change was CAUSED_BY one of its executions; or
  a person), from the ``File``'s observations;
* the memories hybrid recall finds (words, meaning, graph proximity), merged by
  their scores (:func:`cognition.recall.rank.combine`, words weighing most) and
  kept only above a relevance floor (:mod:`cognition.recall.rank`):
  past sessions' outcomes (episodes), Claude Code turns, facts, procedures,
  lessons, censors, heuristics, and decisions that acted or escalated.

Never shown: decisions that did nothing (WAIT churn, an ACT with no template
that never ran, an ACT of a dry run: left out in the query, before any limit) and pattern
statistics (not searched at all). When nothing is relevant the answer is
empty, and a prompt then gets nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cognition.recall.hybrid import ITEM_CHARS, HybridRecall, RecalledItem
from cognition.recall.rank import above_floor, combine, diversify, prefer_recent
from cognition.text import estimate_tokens, fit_lines, plain_text
from graph.store.recall import FileChanges

MAX_QUESTION_CHARS = 2000  # the search needs the words, not a whole document
# The fusion for a question, measured on conversations (bench.recall_quality --conversation):
# ten candidates of each method (five or twenty found less), merged by their scores
# (cognition.recall.rank.combine), words weighing 0.7 and meaning 0.3. On six LoCoMo
# conversations it found an evidence turn for 0.691 of the questions against 0.665 by
# reciprocal rank fusion (equal weights, k 5), better or equal on each conversation, and
# about as well at words 0.6 or 0.8; through `nous mcp` alone on four others, never used
# to choose it, 0.721 against 0.693 (1.34x plain BM25 against 1.28x). Rank fusion let a
# method's weak first hit tie with the other's clear winner, and on such questions (names,
# places, things) words are the surer method. The graph (the same file or session) weighs
# as meaning.
CANDIDATES = 10
QUESTION_WEIGHTS = {"words": 0.7, "meaning": 0.3, "graph": 0.3}
MAX_ITEMS = 5  # shown at most: past that an answer costs more tokens than it helps
CONTEXT_CHARS = 200  # of a fact's context, shown after it
CHANGES_SHOWN = 5  # of each named file's recent changes
DIVERSITY = 0.0  # MMR's weight: measured, no gain (bench.recall_quality), so off
RECENCY = 0.0  # the recency weight: measured, no gain (bench.recall_quality), so off


@dataclass(frozen=True)
class RecallAnswer:
    """The recalled memory as text ("" when nothing is relevant), how many items of each kind,
    and the ids of the decisions it shows (what ``why`` takes)."""

    text: str
    items: dict[str, int]
    token_estimate: int
    decision_ids: tuple[str, ...] = ()


class QuestionRecall:
    """Answers questions from one agent's memory through ``hybrid`` (vectors where it has them)."""

    def __init__(self, hybrid: HybridRecall) -> None:
        self.hybrid = hybrid
        self.store = hybrid.store

    async def answer(
        self,
        question: str,
        *,
        paths: Sequence[str] = (),
        session_id: str | None = None,
        budget_tokens: int = 1500,
        leave_out: Sequence[str] = (),
    ) -> RecallAnswer:
        """What memory holds about ``question`` and the files at ``paths`` (root-relative);
        an item quoting any of ``leave_out`` (superseded decisions' words) is not shown."""
        question = question[:MAX_QUESTION_CHARS]
        # One after the other, on one connection: a hook alone opens no second one (its
        # handshake costs more than the round trip), and a prompt naming no file reads once.
        changes = await self.store.file_changes(list(paths), limit=CHANGES_SHOWN)
        ranked = await self.ranked(
            question, path=paths[0] if paths else None, session_id=session_id
        )
        if leave_out:
            ranked = [item for item in ranked if not quotes_any(item.text, leave_out)]
        sections: list[str] = []
        if changes:
            sections.append(render_changes(changes))
        used = sum(estimate_tokens(s) for s in sections)
        lines = fit(ranked, budget_tokens - used)
        if lines:
            sections.append("## Recalled (most relevant first)\n" + "\n".join(lines))
        shown = ranked[: len(lines)]
        items: dict[str, int] = {"changed files": len(changes)} if changes else {}
        for item in shown:
            kind = item.label.lower() + "s"
            items[kind] = items.get(kind, 0) + 1
        text = "\n\n".join(sections)
        decisions = tuple(i.id for i in shown if i.label == "Decision")
        return RecallAnswer(text, items, estimate_tokens(text) if text else 0, decisions)

    async def ranked(
        self, question: str, *, path: str | None = None, session_id: str | None = None
    ) -> list[RecalledItem]:
        """The candidates combined, above the floor, ranked again: best first, at most MAX_ITEMS."""
        found = await self.hybrid.search(
            question, path=path, session_id=session_id, limit=CANDIDATES, useful_only=True
        )
        fused = combine(
            {"words": found.words, "meaning": found.meaning, "graph": found.graph},
            QUESTION_WEIGHTS,
        )
        meaning = {hit.id: hit.score for hit in found.meaning}
        kept = above_floor(fused, question, meaning)
        kept = prefer_recent(kept, RECENCY)
        return diversify(kept, DIVERSITY, MAX_ITEMS)


QUOTE_CHARS = 80
"""How much of a text an item must hold, word for word (spaces aside), to be quoting it."""


def quotes_any(text: str, quoted: Sequence[str]) -> bool:
    """Whether ``text`` holds the start of any of ``quoted`` (whitespace ignored)."""
    flat = " ".join(text.split())
    return any(" ".join(q.split())[:QUOTE_CHARS] in flat for q in quoted if q.strip())


def fit(items: Sequence[RecalledItem], budget_tokens: int) -> list[str]:
    """One line per item, best first, as many as fit ``budget_tokens``."""
    return fit_lines((render_item(item) for item in items), budget_tokens)


def render_item(item: RecalledItem) -> str:
    """``- [fact, 2026-11-20, found by words + meaning] text``: kind, day, methods, text;
    a fact's context after it (``(after: ...)``), since an answer alone may not say what it
    answers."""
    day = f", {item.at[:10]}" if item.at else ""
    by = " + ".join(item.found_by)
    # The context's last line: what was told just before the item.
    before = item.context.rsplit("\n", 1)[-1]
    after = f" (after: {plain_text(before, CONTEXT_CHARS)})" if before else ""
    return (
        f"- [{item.label.lower()}{day}, found by {by}] {plain_text(item.text, ITEM_CHARS)}{after}"
    )


def render_changes(changes: Sequence[FileChanges]) -> str:
    """What recently changed in the named files: how often, when, by the agent or a person."""
    lines = ["## Recent changes to the files named"]
    for file in changes:
        people = file.total - file.by_agent
        lines.append(
            f"- {file.path}: changed {file.total} time{'s' if file.total != 1 else ''}"
            f" ({file.by_agent} by the agent, {people} by a person)"
        )
        for change in file.changes:
            who = "the agent" if change.by == "agent" else "a person"
            run = f" (execution {change.execution_id})" if change.execution_id else ""
            what = change.type.removeprefix("file_")
            lines.append(f"  - {change.at[:16].replace('T', ' ')} {what} by {who}{run}")
    return "\n".join(lines)
