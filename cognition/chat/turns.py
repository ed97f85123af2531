"""The chat API's data (seed 004): a turn's context going in, its result coming out.

A chat runtime calls :class:`cognition.chat.layer.CognitiveLayer` ``pre_turn``
for a :class:`TurnContext` (the system prompt, the frame, the decision being
deliberated), lets its model answer, and hands a :class:`TurnResult` with
the model's tool calls to ``post_turn``. :func:`render_turn_context` is the
minimal context used when no context engine is plugged in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cognition.text import CHARS_PER_TOKEN, clip
from graph.models import Censor, WorkingMemory
from graph.models.frame import ContextBudget, FrameSpec


class FrameSelection(BaseModel):
    """The frame chosen for an input, and how (seed 004's FrameSelection).

    ``frame_id`` is the frame's stable key (``"decision"``), as in seed 004's
    tests; ``frame_name`` its title; ``node_id`` the ``Frame`` node's id.
    ``confidence`` is the winning frame's share of all pattern matches (1.0
    when only it matched, 0.5 for a two-way tie); 0.0 for the default frame
    chosen because nothing matched.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    frame_id: str
    frame_name: str
    confidence: float = Field(ge=0.0, le=1.0)
    match_method: Literal["pattern", "default"]
    node_id: str | None = None
    description: str | None = None
    default_category: str | None = None
    default_stakes: Literal["low", "medium", "high", "critical"] | None = None
    questions_to_ask: list[str] = Field(default_factory=list)
    activation_patterns: list[str] = Field(default_factory=list)
    priority: int = 0
    usage_count: int = Field(default=0, ge=0)
    budget: ContextBudget = Field(default_factory=ContextBudget)

    @classmethod
    def from_spec(
        cls,
        spec: FrameSpec,
        *,
        confidence: float,
        match_method: Literal["pattern", "default"],
        node_id: str | None = None,
        usage_count: int = 0,
    ) -> FrameSelection:
        """The selection of ``spec``."""
        return cls(
            frame_id=spec.name,
            frame_name=spec.title,
            confidence=confidence,
            match_method=match_method,
            node_id=node_id,
            description=spec.description or None,
            default_category=spec.default_category,
            default_stakes=spec.default_stakes,
            questions_to_ask=list(spec.questions_to_ask),
            activation_patterns=list(spec.activation_patterns),
            priority=spec.priority,
            usage_count=usage_count,
            budget=spec.budget,
        )

    def spec(self) -> FrameSpec:
        """The frame itself, as :mod:`cognition.frames.spec` and the context engine take it."""
        return FrameSpec(
            name=self.frame_id,
            title=self.frame_name,
            description=self.description or "",
            activation_patterns=tuple(self.activation_patterns),
            default_category=self.default_category,
            default_stakes=self.default_stakes,
            questions_to_ask=tuple(self.questions_to_ask),
            priority=self.priority,
            budget=self.budget,
        )


class TurnContext(BaseModel):
    """What ``pre_turn`` gives the runtime: everything its model needs for the turn."""

    model_config = ConfigDict(extra="forbid")

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

    model_config = ConfigDict(extra="forbid")

    tool_name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: str | None = None
    error: str | None = None
    duration_ms: int | None = Field(default=None, ge=0)


class TurnResult(BaseModel):
    """What ``post_turn`` is told: the response, the tool calls, the turn's own error."""

    model_config = ConfigDict(extra="forbid")

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
