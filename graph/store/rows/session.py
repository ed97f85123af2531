"""Rows the Claude Code hooks read without pydantic: censors, heuristics, patterns, episodes.

Each is a node as stored, field for field the model of :mod:`graph.models`
(a test compares them), so the stores that hand out models make one from it
and a hook working alone reads it as it is (issue 27).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class CensorRow:
    """A stored ``Censor``: what the gate and a session's start show."""

    id: str
    agent_id: str
    at: datetime
    trigger_pattern: str = ""
    reason: str = ""
    severity: str = "warn"
    status: str = "active"
    fire_count: int = 0
    last_fired_at: datetime | None = None
    call_key: str | None = None


@dataclass(frozen=True)
class HeuristicRow:
    """A stored ``Heuristic``: what a session's start shows of the active ones."""

    id: str
    agent_id: str
    at: datetime
    domain: str = ""
    content: str = ""
    usage_count: int = 0
    last_used: datetime | None = None
    helpful: int = 0
    harmful: int = 0
    confirmations: int = 0
    status: str = "candidate"
    pruned_at: datetime | None = None
    prune_reason: str | None = None
    trial_summary: str | None = None


@dataclass(frozen=True)
class PatternRow:
    """A stored ``Pattern``: its counts after a tool call's (or a decision's) outcome."""

    id: str
    agent_id: str
    at: datetime
    key: str
    total: int = 0
    successes: int = 0
    avg_confidence: float = 0.0
    last_used: datetime | None = None


@dataclass(frozen=True)
class EpisodeRow:
    """A stored ``Episode``: the session's, as its start finds or begins it."""

    id: str
    agent_id: str
    at: datetime
    session_id: str
    started_at: datetime
    ended_at: datetime | None = None
    outcome: str | None = None
    summary: str = ""
    lessons: list[str] = field(default_factory=list)
    kept_task: str = ""
    kept_frame: str | None = None
    kept_threads: list[str] = field(default_factory=list)
    kept_decision_id: str | None = None
    compacted_at: datetime | None = None
    compactions: int = 0


@dataclass(frozen=True)
class StartedEpisode:
    """The one row of ``learn/start_episode``: the episode, and whether this call began it."""

    episode: EpisodeRow
    created: bool
