"""Recall for a Claude Code prompt: what memory holds about the file and the words it names.

``UserPromptSubmit`` hands the prompt to seed 004's ``pre_turn``, whose
context builder this is. It asks the same one door the MCP ``recall`` tool
asks (:func:`scheduler.claude.mcp_recall.recall_question`), about the first
file the prompt names that exists inside the project, within the chosen
frame's budget. What comes back is fenced as data: it holds text from
files, prompts and tool output.
"""

from __future__ import annotations

import re
from pathlib import Path

from cognition.text import fence
from graph.errors import GraphError
from graph.models.frame import FrameSpec
from graph.settings import SenseSettings
from graph.store.memory import Memory
from graph.watch.files import inside_root
from scheduler.claude.mcp_recall import recall_question

_PATHLIKE = re.compile(r"[\w.@~+-]*[/.][\w./@~+-]*\w")
_MAX_CANDIDATES = 8
FENCE_LABEL = "what Nous remembers about this project"


def mentioned_path(prompt: str, root: Path) -> str | None:
    """The first path the prompt names that is a file inside ``root``, relative to it."""
    base = root.resolve()
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
        if path is not None and path.is_file():
            return candidate
    return None


class PromptRecall:
    """A :data:`cognition.chat.layer.ContextBuilder` recalling what a prompt is about."""

    reads_working_memory = False
    """Recall here asks nothing of working memory, so it runs beside the update."""

    def __init__(self, memory: Memory, root: Path, sense: SenseSettings) -> None:
        self.memory = memory
        self.root = root
        self.sense = sense

    async def __call__(self, user_input: str, frame: FrameSpec, session_id: str) -> str:
        """The recalled context for ``user_input`` in ``frame``, fenced; "" when nothing matched."""
        answer = await recall_question(
            self.memory,
            user_input,
            path=mentioned_path(user_input, self.root),
            root=self.root,
            tokens=frame.budget.total,
            sense=self.sense,
        )
        if not answer.text.strip():
            return ""
        return fence(answer.text, FENCE_LABEL)
