"""Recall for a chat prompt: what memory holds about the files and words a prompt names.

The daemon recalls for an observation; a prompt becomes one too (a
``task_queued`` observation, classified by path like any other, the prompt in
its metadata for full-text search), about the first file the prompt names
that exists inside the project. The same one-query recall then finds past
decisions on that file, kind and folder with their outcomes, facts,
procedures, episodes and lessons, within the frame's budget, and the
context renderer lays them out. What comes back is fenced as data: it holds
text from files, prompts and tool output.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from cognition.context.render import render_context
from cognition.recall.gather import Recall
from cognition.text import fence, plain_text
from graph.errors import GraphError
from graph.models import Observation, ObservationType
from graph.models.frame import FrameSpec
from graph.store.memory import Memory
from graph.watch.files import inside_root

Classify = Callable[[Observation], Observation]

_PATHLIKE = re.compile(r"[\w.@~+-]*[/.][\w./@~+-]*\w")
_MAX_CANDIDATES = 8
_PROMPT_CHARS = 300
FENCE_LABEL = "what Nous remembers about this project"


def mentioned_path(prompt: str, root: Path) -> str | None:
    """The first path the prompt names that is a file inside ``root``, relative to it."""
    base = root.resolve()
    for token in _PATHLIKE.findall(prompt)[:_MAX_CANDIDATES]:
        candidate = token.strip(".,;:")
        if candidate.startswith("/"):
            try:
                candidate = Path(candidate).relative_to(base).as_posix()
            except ValueError:
                continue
        candidate = candidate.removeprefix("./")
        try:
            path = inside_root(base, candidate)
        except (GraphError, ValueError):
            continue  # "..", an absolute path, an empty name: not a file of the project
        if path is not None and path.is_file():
            return candidate
    return None


class PromptRecall:
    """A :data:`cognition.chat.layer.ContextBuilder` recalling what a prompt is about."""

    def __init__(self, memory: Memory, root: Path, classify: Classify) -> None:
        self.memory = memory
        self.root = root
        self.classify = classify
        self.recall = Recall(memory, root, templates_for=lambda _o, _f: [])

    async def __call__(self, user_input: str, frame: FrameSpec, session_id: str) -> str:
        """The recalled context for ``user_input`` in ``frame``, fenced; "" when nothing was found."""
        observation = self.classify(
            Observation(
                agent_id=self.memory.agent_id,
                type=ObservationType.TASK_QUEUED,
                path=mentioned_path(user_input, self.root),
                metadata={"prompt": plain_text(user_input, _PROMPT_CHARS)},
            )
        )
        context = await self.recall.build([observation], frame, session_id=session_id)
        found = any(
            (
                context.past_decisions,
                context.facts,
                context.procedures,
                context.episodes,
                context.lessons,
                context.censors,
            )
        )
        if not found:
            return ""
        return fence(render_context(context, identity="").text, FENCE_LABEL)
