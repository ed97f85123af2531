"""Self-improvement's nodes (seed 003): reflections, desires, trajectories, heuristics, cycles.

``rsi/`` fills them; the active ``Heuristic`` nodes are the strategies every
LLM request carries in its system prompt (``rsi.strategies``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from graph.models.base import Node


class Reflection(Node):
    """What the agent wrote when it reflected on recent memory; ``EXPRESSED`` desires."""

    raw: str
    reflector: str = "rules"  # "llm" or "rules"
    items_shown: int = 0
    error: str | None = None


class Desire(Node):
    """Something the agent wants to get better at, with where the wish came from."""

    description: str
    intensity: float = Field(0.5, ge=0.0, le=1.0)
    domain: str = ""
    origin: Literal["reflection", "external", "bootstrap"] = "reflection"
    external_request: str | None = None
    status: str = "pending"
    score: float | None = None
    rejection_reason: str | None = None
    # Provenance and verification (E1-E5): how many cited ids were real, and the two halves.
    reflection_id: str | None = None
    cited: int = 0
    dropped_citations: int = 0
    provenance_score: float | None = None
    specificity: float | None = None
    # Routing (D1-D5), kept for calibration (D2): who routed, how sure, the runner-up.
    secondary_domain: str | None = None
    route_confidence: float | None = None
    routed_by: str | None = None
    practice_success: bool | None = None


class Trajectory(Node):
    """One practice attempt: the problem, the solution, and how the tests went."""

    domain: str
    problem: str
    solution: str = ""
    approach: str = ""
    success: bool = False
    partial_score: float = 0.0
    tests_passed: int = 0
    tests_total: int = 0
    desire_id: str | None = None
    problem_source: str = "generated"
    problem_hash: str = ""
    difficulty: str = "beginner"
    duration_s: float = 0.0
    attempts: int = 1
    error: str | None = None


class Heuristic(Node):
    """A strategy distilled from trajectories, carried by every prompt until pruned."""

    domain: str
    content: str
    usage_count: int = 0
    last_used: datetime | None = None
    # ACE's counters: decisions that applied it and went well or badly (never dry runs).
    helpful: int = 0
    harmful: int = 0
    # ExpeL's votes: how often crystallisation distilled it again (a duplicate reinforces).
    confirmations: int = 0
    status: Literal["active", "pruned"] = "active"
    pruned_at: datetime | None = None
    prune_reason: str | None = None


class RSICycle(Node):
    """The counts of one self-improvement cycle."""

    processed: int = 0
    accepted: int = 0
    rejected: int = 0
    practised: int = 0
    succeeded: int = 0
    crystallised: int = 0
    blocked_domains: list[str] = Field(default_factory=list)
    dropped_citations: int = 0
    selection_seed: int | None = None
    selected_desire_id: str | None = None
    domain: str | None = None
    trajectory_ids: list[str] = Field(default_factory=list)
    reflector: str = "rules"
    skipped: str | None = None
    duration_s: float = 0.0
    error: str | None = None
    direction_variance: float | None = None
