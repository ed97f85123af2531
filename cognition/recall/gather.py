"""Recall: everything memory holds about a batch of observations, as a :class:`DecisionContext`.

Before each decision the loop asks :class:`Recall` for a context: the
primary observation's file (read inside the watched root only), past
decisions on the same file, kind and folder with their outcomes, pattern
statistics, goals, censors, working memory, and facts, procedures,
episodes and lessons found by full-text search; and, with embeddings on,
memories "similar by meaning": the nodes whose vector is nearest the
primary file's own vector (written by the vector job, so the loop never
waits for an embedding). Strategies are not part of it: the system prompt
every LLM request carries shows them (:mod:`cognition.carried`). How much of
each is fetched follows from the frame's budget (:func:`recall_limits`); a
section the frame gives no budget is not queried at all. Investigation
rounds recall deeper: larger limits, and the investigation questions
(``extra_queries``) added to the full-text search.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Literal, TypeVar

from cognition.frames.budget import section_budgets
from cognition.recall.file_head import read_file_view
from cognition.recall.hybrid import ITEM_CHARS, HybridRecall
from cognition.schemas import (
    DecisionContext,
    FileView,
    PastDecision,
    RecalledText,
    TemplateOption,
)
from cognition.text import CHARS_PER_TOKEN
from graph.models import DecisionType, Episode, Fact, Lesson, Node, Observation, Procedure
from graph.models.frame import ContextBudget, FrameSpec
from graph.models.learn import path_pattern_key, pattern_key
from graph.models.paths import path_pattern
from graph.store.lucene import lucene_query
from graph.store.memory import Memory
from graph.store.recall import RecallRequest, SimilarDecision, TextHit

N = TypeVar("N", bound=Node)
TemplatesFor = Callable[[Observation, FileView | None], list[TemplateOption]]

# Tokens one recalled item takes in the prompt, about: a section's budget divided by it is
# how many items are worth fetching.
ITEM_TOKENS = {
    "censors": 20,
    "goals": 15,
    "decisions": 30,
    "patterns": 20,
    "facts": 30,
    "procedures": 50,
    "episodes": 40,
    "lessons": 30,
    "similar": 40,
}
MAX_ITEMS = 20  # per section in a first look; each investigation round adds as many again
MAX_DEPTH = 3
DEFAULT_MAX_CONTENT_BYTES = 8192


def recall_limits(budget: ContextBudget, investigation_round: int = 0) -> dict[str, int]:
    """How many items to fetch per section: what the budget can show, deeper when investigating.

    0 for a section whose budget is 0 (it is not queried).
    """
    budgets = section_budgets(budget)
    depth = min(1 + max(investigation_round, 0), MAX_DEPTH)
    return {
        name: 0 if budgets[name] <= 0 else min(max(1, budgets[name] // tokens), MAX_ITEMS) * depth
        for name, tokens in ITEM_TOKENS.items()
    }


def pattern_keys(observation: Observation, templates: Sequence[TemplateOption]) -> list[str]:
    """The pattern keys (``category:type:decision:template``) a decision here could make,
    and each template's on this kind of path (:func:`graph.models.learn.path_pattern_key`)."""
    kind = (observation.category, observation.type)
    here = path_pattern(observation.path)
    keys = []
    for t in templates:
        key = pattern_key(*kind, DecisionType.ACT, t.name)
        keys += [key, path_pattern_key(key, here) or key]
    keys += [pattern_key(*kind, d, None) for d in DecisionType]
    return list(dict.fromkeys(keys))


def recalled_decision_ids(context: DecisionContext) -> list[str]:
    """The past decisions the context showed, for the new decision's ``RECALLED`` relationships."""
    return list(dict.fromkeys(d.id for d in context.past_decisions))


class Recall:
    """Builds decision contexts for one agent's memory and watched root.

    ``templates_for`` offers the action templates that fit an observation
    (given its file, when there is one). At most ``max_content_bytes`` of the
    primary file are read, and never more than the frame can show; none at
    all with ``read_files`` False (a caller that shows no observations and
    offers no templates: the file costs it a thread hop and a read for nothing).
    """

    def __init__(
        self,
        memory: Memory,
        root: Path,
        templates_for: TemplatesFor,
        *,
        max_content_bytes: int = DEFAULT_MAX_CONTENT_BYTES,
        meaning: HybridRecall | None = None,
        read_files: bool = True,
    ) -> None:
        self.store = memory.recall
        self.censor_store = memory.censors
        self.read_files = read_files
        self.meaning = meaning  # None: embeddings off, no "similar by meaning" section
        self.root = root
        self.templates_for = templates_for
        self.max_content_bytes = max_content_bytes

    async def build(
        self,
        observations: list[Observation],
        frame: FrameSpec,
        *,
        session_id: str | None = None,
        investigation_round: int = 0,
        extra_queries: Sequence[str] = (),
    ) -> DecisionContext:
        """Recall what memory holds about ``observations`` (the first is the primary one)."""
        if not observations:
            raise ValueError("recall needs at least one observation")
        primary = observations[0]
        limits = recall_limits(frame.budget, investigation_round)
        budgets = section_budgets(frame.budget)
        file = await self._file(primary, budgets)
        templates = self.templates_for(primary, file) if budgets["templates"] > 0 else []
        # One round trip for everything the graph holds by key and word: on a busy machine
        # each extra query costs more (session, transaction, records) than the work it asks
        # of Neo4j. The search by meaning, when on, runs beside it.
        request = RecallRequest(
            path=primary.path,
            category=primary.category.value,
            observation_type=primary.type.value,
            path_pattern=path_pattern(primary.path),
            keys=pattern_keys(primary, templates),
            prefix=f"{primary.category.value}:",
            session_id=session_id if budgets["working_memory"] > 0 else None,
            query=lucene_query(_query_texts(observations, extra_queries)),
            limits={k: v for k, v in limits.items() if k != "similar"},
        )
        censor_writes = self.censor_store.writes
        found, similar = await asyncio.gather(
            self.store.recall(request), self._similar(primary.path, limits["similar"])
        )
        patterns = {p.key: p for p in [*found.patterns, *found.top_patterns]}
        return DecisionContext(
            observations=observations,
            frame=frame,
            file=file,
            past_decisions=[_past_decision(s) for s in found.decisions],
            patterns=list(patterns.values())[: limits["patterns"]],
            goals=found.goals,
            censors=found.censors,
            censors_whole_at=censor_writes if len(found.censors) < limits["censors"] else None,
            facts=_recalled("fact", found.facts, _fact),
            procedures=_recalled("procedure", found.procedures, _procedure),
            episodes=_recalled("episode", found.episodes, _episode),
            lessons=_recalled("lesson", found.lessons, _lesson),
            similar=similar,
            templates=templates,
            working_memory=found.working_memory,
            investigation_round=investigation_round,
        )

    async def _file(self, primary: Observation, budgets: Mapping[str, int]) -> FileView | None:
        """The primary observation's file, when the frame shows it or its templates need it."""
        # The file is shown with the observations and may decide which templates apply.
        wanted = budgets["observations"] > 0 or budgets["templates"] > 0
        if not (self.read_files and primary.path and wanted):
            return None
        # No more than the frame could ever show (4 bytes per character at most).
        cap = budgets["observations"] * CHARS_PER_TOKEN * 4
        head = min(self.max_content_bytes, cap)
        return await asyncio.to_thread(read_file_view, self.root, primary.path, head)

    async def _similar(self, path: str | None, limit: int) -> list[RecalledText]:
        """Memories nearest the file's own vector: no embedding is made on the loop's path."""
        if self.meaning is None or path is None or limit <= 0:
            return []
        hits = await self.meaning.similar(path=path, limit=limit)
        return [
            RecalledText(
                id=h.id,
                kind="similar",
                text=f"{h.label.lower()}: {h.text[:ITEM_CHARS]}",
                score=h.score,
                at=_when(h.at),
            )
            for h in hits[:limit]
        ]


def _when(at: str | None) -> datetime | None:
    return datetime.fromisoformat(at) if at else None


def _past_decision(item: SimilarDecision) -> PastDecision:
    d = item.decision
    return PastDecision.model_validate(
        {
            "id": d.id,
            "at": d.at,
            "similarity": item.similarity,
            "type": d.type,
            "confidence": d.confidence,
            "observation_type": d.observation_type,
            "category": d.category,
            "path": d.path,
            "template": d.template,
            "executed": d.executed,
            "outcome_success": d.outcome_success,
            "outcome": d.outcome,
        }
    )


def _query_texts(observations: Sequence[Observation], extra: Sequence[str]) -> list[str]:
    """What full-text recall searches for: paths, categories, metadata, then extra questions."""
    texts: list[str] = []
    for o in observations[:5]:
        texts.append(o.path or "")
        texts.append(o.category.value)
        texts.extend(str(v)[:200] for v in o.metadata.values() if isinstance(v, str))
    return texts + list(extra)


def _recalled(
    kind: Literal["fact", "procedure", "episode", "lesson"],
    hits: Sequence[TextHit[N]],
    describe: Callable[[N], str],
) -> list[RecalledText]:
    """Full-text hits of one kind as the context shows them: ``describe`` writes each one's line."""
    return [
        RecalledText(id=h.node.id, kind=kind, text=describe(h.node), score=h.score, at=h.node.at)
        for h in hits
    ]


def _fact(f: Fact) -> str:
    return f"{f.content} [confirmed {f.confirmations}x]"


def _procedure(p: Procedure) -> str:
    text = f"**{p.name}**" + (f" ({p.domain})" if p.domain else "")
    if p.core_patterns:
        text += ": " + "; ".join(p.core_patterns)
    return text


def _episode(e: Episode) -> str:
    text = f"[{e.outcome or 'open'}] {e.summary} ({e.started_at:%Y-%m-%d})"
    if e.lessons:
        text += " Lessons: " + "; ".join(e.lessons)
    return text


def _lesson(lesson: Lesson) -> str:
    text = f"{lesson.type}: {lesson.reason}"
    if lesson.adjustment:
        text += f" (adjustment: {lesson.adjustment})"
    if lesson.pattern_key:
        text += f" [pattern {lesson.pattern_key}]"
    return text
