"""Self-improvement's nodes (seed 003): reflections, desires, trajectories, heuristics, cycles.

``rsi/`` fills them; the active ``Heuristic`` nodes are the strategies every
LLM request carries in its system prompt (``rsi.strategies``). A heuristic
starts as a ``candidate`` and becomes ``active`` only after a
``HeuristicTrial`` on practice problems found it not worse.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import Field

from graph.models.base import Node


class DesireStatus(StrEnum):
    """Where a desire stands: verified ones wait to be drawn; practiced ones are done."""

    PENDING = "pending"
    VERIFIED = "verified"
    REJECTED = "rejected"
    SELECTED = "selected"
    NEEDS_CLARIFICATION = "needs_clarification"
    PRACTICED = "practiced"
    # No usable practice problem was found: not drawn again (a person may re-state it).
    UNPRACTICABLE = "unpracticable"


class HeuristicStatus(StrEnum):
    """A heuristic's life: only ``active`` ones are carried by the prompts."""

    CANDIDATE = "candidate"
    ACTIVE = "active"
    REJECTED = "rejected"
    PRUNED = "pruned"


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
    status: DesireStatus = DesireStatus.PENDING
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
    # A bootstrap desire names the practice-pool problem it was drawn for.
    problem_source: str | None = None


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
    # The shown strategies the reply said it applied (``APPLIED`` links; credited by outcome).
    applied: list[str] = Field(default_factory=list)
    # The first try that failed, and the failure it met (empty when the first try passed):
    # what a Case keeps as the error that taught the solution.
    failed_attempt: str = ""
    failed_error: str = ""
    # The cases shown before the attempt as worked examples (credited by its outcome).
    cases_shown: list[str] = Field(default_factory=list)


class Heuristic(Node):
    """A strategy distilled from trajectories; carried by every prompt while ``active``."""

    domain: str
    content: str
    usage_count: int = 0
    last_used: datetime | None = None
    # ACE's counters: decisions that applied it and went well or badly (never dry runs).
    helpful: int = 0
    harmful: int = 0
    # ExpeL's votes: how often crystallization distilled it again (a duplicate reinforces).
    confirmations: int = 0
    status: HeuristicStatus = HeuristicStatus.CANDIDATE
    pruned_at: datetime | None = None
    prune_reason: str | None = None
    # The latest trial's verdict in words (figures on the HeuristicTrial node).
    trial_summary: str | None = None


class HeuristicTrial(Node):
    """A paired trial: the same practice problems solved with and without one heuristic.

    ``with_passed`` and ``without_passed`` are the per-problem outcomes, in the
    order of ``problems``; ``with_only`` / ``without_only`` the discordant
    pairs; ``p_value`` the exact two-sided McNemar (sign test) p; ``margin``
    the net loss (problems) allowed; ``verdict`` what it decided.
    """

    heuristic_id: str
    domain: str
    problems: list[str] = Field(default_factory=list)
    with_passed: list[bool] = Field(default_factory=list)
    without_passed: list[bool] = Field(default_factory=list)
    with_only: int = 0
    without_only: int = 0
    p_value: float = 1.0
    margin: int = 0
    # The net wins (with-only minus without-only) the heuristic needed to be carried.
    min_wins: int = 1
    test: str = "exact McNemar (sign test on discordant pairs)"
    errors: int = 0
    verdict: Literal["kept", "rejected", "inconclusive"] = "inconclusive"
    reason: str = ""


class RSICycle(Node):
    """One self-improvement cycle: its counts, what it chose, and why it did not practice.

    The engine fills it as the cycle runs and writes it at the end (seed 003
    A3's CycleResult is this record). ``practice_origin`` says whose desire
    was practiced (``reflection``, ``external`` or ``bootstrap``); ``skipped``
    says why a cycle did not practice.
    """

    processed: int = 0
    accepted: int = 0
    rejected: int = 0
    practiced: int = 0
    succeeded: int = 0
    crystallized: int = 0
    trials: int = 0
    activated: int = 0
    rejected_heuristics: int = 0
    blocked_domains: list[str] = Field(default_factory=list)
    dropped_citations: int = 0
    selection_seed: int | None = None
    selected_desire_id: str | None = None
    practice_origin: str | None = None
    domain: str | None = None
    trajectory_ids: list[str] = Field(default_factory=list)
    reflector: str = "rules"
    skipped: str | None = None
    duration_s: float = 0.0
    error: str | None = None
    direction_variance: float | None = None
