"""Recall for a Claude Code prompt: what memory holds about the files and the words it names.

``UserPromptSubmit`` hands the prompt to seed 004's ``pre_turn``, whose
context builder this is. It asks the same one door the MCP ``recall`` tool
asks (:class:`cognition.recall.question.QuestionRecall`), about the files the
prompt names that exist inside the project, within the chosen frame's
budget: their recent changes, and what memory holds above the relevance
floor; nothing at all when nothing is relevant. A hook answers alone by
words and the graph (no model is loaded on the prompt's path); given a
``HybridRecall`` with embeddings (the daemon's), by meaning too. What comes
back is fenced as data: it holds text from files, prompts and tool output.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from cognition.decisions.recall import DecisionRecall
from cognition.recall.hybrid import HybridRecall
from cognition.recall.question import QuestionRecall
from cognition.text import estimate_tokens, fence
from graph.errors import GraphError
from graph.models.frame import FrameSpec
from graph.settings_lean import HookEmbeddings
from graph.store.memory import Memory
from graph.watch.files import inside_root

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from graph.settings import EmbeddingSettings

_PATHLIKE = re.compile(r"[\w.@~+-]*[/.][\w./@~+-]*\w")
_MAX_CANDIDATES = 8
MAX_PATHS = 3  # files of one prompt whose changes are shown
FENCE_LABEL = "what Nous remembers about this project"
DECISION_SHARE = 0.5
"""Of the frame's budget, what the decisions in force may take at most (they come first)."""


def mentioned_path(prompt: str, root: Path) -> str | None:
    """The first path the prompt names that is a file inside ``root``, relative to it."""
    found = mentioned_paths(prompt, root)
    return found[0] if found else None


def mentioned_paths(prompt: str, root: Path, limit: int = MAX_PATHS) -> list[str]:
    """The paths the prompt names that are files inside ``root``, relative to it, in order."""
    base = root.resolve()
    found: list[str] = []
    for token in _PATHLIKE.findall(prompt)[:_MAX_CANDIDATES]:
        candidate = str(token).strip(".,;:")
        if candidate.startswith("/"):
            try:
                candidate = Path(candidate).relative_to(base).as_posix()
            except ValueError:
                continue
        candidate = candidate.removeprefix("./")
        try:
            path = inside_root(base, candidate)
        except (GraphError, ValueError):
            continue  # "..", an empty name: not a file of the project
        if path is not None and path.is_file() and candidate not in found:
            found.append(candidate)
        if len(found) >= limit:
            break
    return found


class PromptRecall:
    """A :data:`cognition.chat.layer.ContextBuilder` recalling what a prompt is about."""

    reads_working_memory = False
    """Recall here asks nothing of working memory, so it runs beside the update."""

    def __init__(
        self,
        memory: Memory,
        root: Path,
        search: EmbeddingSettings | HookEmbeddings | None = None,
        hybrid: HybridRecall | None = None,
        decisions: DecisionRecall | None = None,
    ) -> None:
        """``search``: the vector search's limits (the defaults when None; a hybrid recall
        without vectors, the one built here, does not use them). ``decisions``: the project's
        decisions, quoted first (none when None)."""
        self.memory = memory
        self.root = root
        self.decisions = decisions
        # Words and the graph only unless given vectors: no model loads on a hook's path.
        self.recall = QuestionRecall(
            hybrid or HybridRecall(memory, None, search or HookEmbeddings.defaults())
        )

    async def __call__(self, user_input: str, frame: FrameSpec, session_id: str) -> str:
        """The context recalled for ``user_input`` in ``frame``, fenced; "" if none is relevant.

        The decisions in force that bear on the prompt come first, within a share of the
        frame's budget (:data:`DECISION_SHARE`); the rest of memory gets what they leave, and
        leaves out what quotes a decision they superseded (the old rule is not offered beside
        the new)."""
        budget = frame.budget.total
        ruled = ""
        replaced: tuple[str, ...] = ()
        if self.decisions is not None:
            found = await self.decisions.for_prompt(user_input, int(budget * DECISION_SHARE))
            ruled, replaced = found.text, found.replaced
        answer = await self.recall.answer(
            user_input,
            paths=mentioned_paths(user_input, self.root),
            budget_tokens=budget - estimate_tokens(ruled) if ruled else budget,
            leave_out=replaced,
        )
        text = "\n\n".join(part for part in (ruled, answer.text.strip()) if part)
        if not text:
            return ""
        return fence(text, FENCE_LABEL)
