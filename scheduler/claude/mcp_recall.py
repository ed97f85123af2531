"""Recall for a question from an MCP client: the daemon's one-query recall, within a budget.

:func:`recall_question` is the one door: the ``recall`` tool calls it and
nothing else, so a better recall (full text fused with vectors) replaces
this function's body and every client gets it. It asks the daemon's own
:class:`cognition.recall.gather.Recall` (one round trip to Neo4j) about the
question, as if the question were an event about ``path``: past decisions
about that file and its folder, active censors and goals, pattern
statistics, and the facts, procedures, episodes and lessons whose text
matches the question. The daemon's renderer fits each section into its
share of the budget (``mcp.recall_tokens``). With embeddings on, hybrid
recall (:mod:`cognition.recall.hybrid`: words, vectors and graph proximity,
fused) adds what the sections did not show as "Similar by meaning", each
item saying which methods found it, within a fifth of the budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cognition.context.render import render_context
from cognition.recall.gather import Recall
from cognition.recall.hybrid import HybridRecall
from cognition.schemas import FileView, TemplateOption
from cognition.sense.classify import ObservationClassifier
from cognition.text import estimate_tokens, plain_text
from graph.models import Observation, ObservationType
from graph.models.frame import ContextBudget, FrameSpec
from graph.settings import SenseSettings
from graph.store.memory import Memory

SECTIONS = ("censors", "goals", "decisions", "patterns", "facts", "procedures", "episodes",
            "lessons")  # fmt: skip
"""What a recall answer shows, in the daemon's assembly order."""

FRAME_NAME = "mcp_recall"
MAX_QUESTION_CHARS = 2000  # full-text search needs the words, not a whole document
MEANING_SHARE = 5  # "similar by meaning" gets a fifth of the recall budget


@dataclass(frozen=True)
class RecallAnswer:
    """The recalled memory as sections of text, how many items each section had, and the ids
    of the past decisions it shows (what ``why`` takes)."""

    text: str
    items: dict[str, int]
    token_estimate: int
    decision_ids: tuple[str, ...] = ()


def recall_budget(tokens: int) -> ContextBudget:
    """The budget of one recall: no identity, frame or working memory, the rest shared out."""
    return ContextBudget(
        total=tokens,
        identity=0,
        frame=0,
        working_memory=0,
        censors=tokens * 10 // 100,
        decisions=tokens * 25 // 100,
        facts=tokens * 20 // 100,
        procedures=tokens * 15 // 100,
        episodes=tokens * 15 // 100,
    )


async def recall_question(
    memory: Memory,
    question: str,
    *,
    path: str | None,
    root: Path,
    tokens: int,
    sense: SenseSettings,
    meaning: HybridRecall | None = None,
) -> RecallAnswer:
    """What memory holds about ``question`` (and the file at ``path``, relative to ``root``).

    ``meaning`` (embeddings on) adds the memories found by hybrid recall that
    the sections do not show.
    """
    frame = FrameSpec(name=FRAME_NAME, title="Recall for a client", budget=recall_budget(tokens))
    # The question is an event about the path: classified as the daemon would (its category
    # picks the pattern statistics), never a file change, so nothing is treated as one.
    event = Observation(agent_id=memory.agent_id, type=ObservationType.EXTERNAL_EVENT, path=path)
    event = ObservationClassifier(sense).classify(event)
    # The file itself is the client's to read, and the answer shows neither observations nor
    # actions (SECTIONS): recall does not open it.
    recall = Recall(memory, root, _no_templates, read_files=False)
    context = await recall.build([event], frame, extra_queries=[question[:MAX_QUESTION_CHARS]])
    rendered = render_context(context, identity="")
    shown = [s for s in rendered.sections if s.label in SECTIONS and s.content]
    items = {
        "censors": len(context.censors),
        "goals": len(context.goals),
        "decisions": len(context.past_decisions),
        "patterns": len(context.patterns),
        "facts": len(context.facts),
        "procedures": len(context.procedures),
        "episodes": len(context.episodes),
        "lessons": len(context.lessons),
    }
    text = "\n\n".join(s.content for s in shown)
    tokens_used = sum(s.token_estimate for s in shown)
    if meaning is not None:
        known = {d.id for d in context.past_decisions}
        known |= {r.id for r in [*context.facts, *context.procedures, *context.episodes]}
        known |= {r.id for r in context.lessons}
        found = await meaning.recall(
            question[:MAX_QUESTION_CHARS], path=path, budget_tokens=tokens // MEANING_SHARE
        )
        lines = [
            f"- [{f.label.lower()}, found by {' + '.join(f.found_by)}] {plain_text(f.text, 400)}"
            for f in found
            if f.id not in known
        ]
        items["similar"] = len(lines)
        if lines:
            section = "## Similar by meaning\n" + "\n".join(lines)
            text = f"{text}\n\n{section}" if text else section
            tokens_used += estimate_tokens(section)
    decision_ids = tuple(d.id for d in context.past_decisions)
    return RecallAnswer(text, items, tokens_used, decision_ids)


def _no_templates(observation: Observation, file: FileView | None) -> list[TemplateOption]:
    # A client asks; it does not act through Nous's templates.
    return []
