"""The chat API's data (seed 004): a turn's context going in, its result coming out.

A chat runtime calls :class:`cognition.chat.layer.CognitiveLayer` ``pre_turn``
for a :class:`TurnContext` (the system prompt, the frame, the decision being
deliberated), lets its model answer, and hands a :class:`TurnResult` with
the model's tool calls to ``post_turn``. :func:`render_turn_context` is the
minimal context used when no context engine is plugged in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cognition.frames.selection import FrameSelection as FrameSelection  # its old home
from cognition.text import CHARS_PER_TOKEN, clip
from graph.models import Censor, WorkingMemory
from graph.models.frame import FrameSpec


class TurnContext(BaseModel):
    """What ``pre_turn`` gives the runtime: everything its model needs for the turn."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    session_id: str
    system_prompt: str
    frame: FrameSelection
    decision_id: str | None = None
    episode_id: str | None = None
    active_censors: list[str] = Field(default_factory=list)
    context_token_estimate: int = 0
    recalled_decision_ids: list[str] = Field(default_factory=list)
    recalled_fact_ids: list[str] = Field(default_factory=list)


class ToolResult(BaseModel):
    """One tool call the model made during the turn, and what came of it."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    tool_name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: str | None = None
    error: str | None = None
    duration_ms: int | None = Field(default=None, ge=0)
    censor_id: str | None = None
    """The censor this failure filed or fired when it happened (it is not counted again)."""
    censor_trigger: str | None = None


class TurnResult(BaseModel):
    """What ``post_turn`` is told: the response, the tool calls, the turn's own error."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    response_text: str
    tool_results: list[ToolResult] = Field(default_factory=list)
    error: str | None = None
    duration_ms: int | None = Field(default=None, ge=0)


def render_turn_context(
    identity: str,
    censors: Sequence[Censor],
    frame: FrameSpec,
    working_memory: WorkingMemory | None,
) -> str:
    """The minimal system prompt: identity, active censors, the frame, working memory.

    Seed 004's first four sections in its order, each cut to the frame's
    budget and skipped when empty or budgeted at zero; recall of decisions,
    facts, procedures and episodes is the context engine's part.
    """
    budget = frame.budget
    lines = [
        f"- **{c.severity.upper()}:** {c.trigger_pattern} — {c.reason}"
        for c in sorted(censors, key=lambda c: c.severity != "block")
    ]
    frame_text = "\n".join(
        [
            frame.description,
            *(["Questions to ask:"] if frame.questions_to_ask else []),
            *(f"- {q}" for q in frame.questions_to_ask),
        ]
    ).strip()
    memory_lines: list[str] = []
    if working_memory is not None:
        if working_memory.current_task:
            memory_lines.append(f"Current task: {working_memory.current_task}")
        if working_memory.open_threads:
            memory_lines += ["Open threads:", *(f"- {t}" for t in working_memory.open_threads)]
    sections = [
        ("", identity.strip(), budget.identity),
        ("## Active censors", "\n".join(lines), budget.censors),
        (f"## Frame: {frame.title}", frame_text or frame.title, budget.frame),
        ("## Working memory", "\n".join(memory_lines), budget.working_memory),
    ]
    parts = []
    for header, body, tokens in sections:
        if not body or tokens <= 0:
            continue
        text = clip(body, tokens * CHARS_PER_TOKEN)
        parts.append(f"{header}\n{text}" if header else text)
    return "\n\n".join(parts)
