"""What the agent learns and remembers: patterns, lessons, censors, episodes, facts, events."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

from pydantic import Field

from graph.models.base import Node

CUSTOM_TEMPLATE = "custom"
"""The template part of a pattern key for a decision that used no template (seed 000)."""


def pattern_key(
    category: str | Enum,
    observation_type: str | Enum,
    decision_type: str | Enum,
    template: str | None,
) -> str:
    """``category:type:decision:template``, with ``custom`` for no template (seed 000): the one
    place a ``Pattern.key`` is built."""
    parts = (category, observation_type, decision_type, template or CUSTOM_TEMPLATE)
    return ":".join(str(part.value) if isinstance(part, Enum) else part for part in parts)


def path_pattern_key(key: str, path_pattern: str | None) -> str | None:
    """The key of ``key``'s statistics on one kind of path (``... on docs/*.md``); None without.

    The seed's key groups every file of a category together, so a template
    that fails on reports and works on notes looks half-broken on both; the
    path pattern (folder and extension, as censors name them) tells them apart.
    """
    return f"{key} on {path_pattern}" if path_pattern else None


class Pattern(Node):
    """Statistics of one ``category:type:decision:template`` key (seed 000 section 5.1)."""

    key: str
    total: int = 0
    successes: int = 0
    avg_confidence: float = 0.0
    last_used: datetime | None = None

    @property
    def success_rate(self) -> float | None:
        """Successes over total, or None before the first outcome."""
        return self.successes / self.total if self.total else None


class Lesson(Node):
    """A lesson drawn from an outcome (seed 000 section 5.2), ``LEARNED_FROM`` its decision."""

    decision_id: str
    type: str
    pattern_key: str | None = None
    adjustment: str
    reason: str


class Censor(Node):
    """Something not to do again (seed 004): ``warn`` at first, ``block`` when it fires again."""

    trigger_pattern: str
    reason: str
    severity: str = "warn"
    status: str = "active"
    fire_count: int = 0
    last_fired_at: datetime | None = None
    call_key: str | None = None
    """Learned from a Claude Code tool call: the call's key (``cognition.monitor.calls``)."""


class Episode(Node):
    """One session of work, from start to end, with what it taught."""

    session_id: str
    started_at: datetime
    ended_at: datetime | None = None
    outcome: str | None = None
    summary: str = ""
    lessons: list[str] = Field(default_factory=list)
    # What a Claude Code session held when its context was last compacted (PreCompact).
    kept_task: str = ""
    kept_frame: str | None = None
    kept_threads: list[str] = Field(default_factory=list)
    kept_decision_id: str | None = None
    compacted_at: datetime | None = None
    compactions: int = 0


class Fact(Node):
    """A piece of knowledge, confirmed so many times."""

    content: str
    confirmations: int = 1


class Procedure(Node):
    """A known way of doing something in a domain."""

    name: str
    domain: str = ""
    core_patterns: list[str] = Field(default_factory=list)


class WorkingMemory(Node):
    """What a session is busy with now."""

    session_id: str
    current_task: str = ""
    current_frame: str | None = None
    open_threads: list[str] = Field(default_factory=list)


class Event(Node):
    """One entry of the audit stream of everything the daemon did."""

    type: str
    data: dict[str, Any] = Field(default_factory=dict)


class Turn(Node):
    """One Claude Code turn (a prompt and what the model did with it), kept between its hooks.

    Every hook is a process of its own, so the turn lives in the graph: opened
    by ``UserPromptSubmit``, tool results appended by ``PostToolUse``, closed by
    ``Stop``. ``tool_results`` holds one JSON object per kept tool call (seed 004's
    ``ToolResult``: name, clipped input and output, error, duration), at most
    ``claude.turn_tool_results`` of them, errors kept over successes;
    ``tool_failed`` says which of them failed, ``tool_calls`` counts every call
    and ``tool_results_dropped`` those not kept.
    """

    session_id: str
    prompt: str = ""
    frame: str | None = None
    decision_id: str | None = None
    episode_id: str | None = None
    status: str = "open"
    tool_results: list[str] = Field(default_factory=list)
    tool_failed: list[bool] = Field(default_factory=list)
    tool_calls: int = 0
    tool_results_dropped: int = 0
    recalled: str = ""
    """What the prompt's hook recalled for the turn (clipped), for PostCompact to put back."""
    response: str | None = None
    outcome: str | None = None
    surprise: float | None = None
    ended_at: datetime | None = None
