"""Rows of ``cypher/audit/``: what ``nous status``, ``why``, the lists and the MCP tools show.

Flat rows are made by :func:`graph.store.rows.from_stored` (the columns the
row names); a column that came back null takes the row's default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from graph.store.rows.session import HeuristicRow

if TYPE_CHECKING:  # types only: the lean hook imports this module and never makes a model
    from graph.models import Decision


@dataclass(frozen=True)
class Operations:
    """Actions started lately, executions running, escalations open (``audit/operations``)."""

    started: int = 0
    running: int = 0
    open_escalations: int = 0


@dataclass(frozen=True)
class RecentDecision:
    """One of the latest decisions (``audit/recent_decisions``)."""

    id: str
    at: datetime | None = None
    type: str | None = None
    confidence: float | None = None
    reasoner: str | None = None
    template: str | None = None
    path: str | None = None
    status: str | None = None
    outcome_success: bool | None = None
    reasoning: str | None = None


@dataclass(frozen=True)
class EventRow:
    """One event of the audit stream (``audit/latest_events``); ``data`` is its JSON text."""

    id: str
    at: datetime | None = None
    type: str | None = None
    session_id: str | None = None
    data: str | None = None


@dataclass(frozen=True)
class OpenEscalation:
    """An escalation still open, with its decision's path (``audit/open_escalations``)."""

    id: str
    at: datetime | None = None
    priority: str | None = None
    reason: str | None = None
    decision_id: str | None = None
    path: str | None = None
    message: str | None = None


@dataclass(frozen=True)
class EscalationNode:
    """An escalation's stored properties, as ``nous escalations show`` prints them."""

    id: str
    at: datetime | None = None
    status: str | None = None
    priority: str | None = None
    reason: str | None = None
    message: str | None = None
    note: str | None = None
    resolved_at: datetime | None = None


@dataclass(frozen=True)
class EscalationDetail:
    """One escalation with its decision (``audit/escalation``)."""

    escalation: EscalationNode
    decision_id: str | None = None
    decision_type: str | None = None
    path: str | None = None
    template: str | None = None
    confidence: float | None = None
    reasoning: str | None = None


@dataclass(frozen=True)
class CensorListed:
    """A censor as ``nous censors`` lists it (``audit/censors``)."""

    id: str
    at: datetime | None = None
    status: str | None = None
    severity: str = "warn"
    fire_count: int = 0
    trigger_pattern: str | None = None
    reason: str | None = None
    lifted_at: datetime | None = None


@dataclass(frozen=True)
class GoalListed:
    """A goal as ``nous goals`` lists it (``audit/goals``)."""

    id: str
    at: datetime | None = None
    description: str | None = None
    priority: str = "medium"
    completed_at: datetime | None = None


@dataclass(frozen=True)
class CalibrationRow:
    """One confidence bucket: decisions and successes in it (``audit/calibration``)."""

    bucket: int
    lower: float
    upper: float
    count: int = 0
    successes: int = 0
    success_rate: float | None = None
    mean_confidence: float | None = None


@dataclass(frozen=True)
class DesireListed:
    """A self-improvement desire as ``nous desires`` lists it (``audit/desires``)."""

    id: str
    at: datetime | None = None
    status: str | None = None
    origin: str | None = None
    domain: str | None = None
    intensity: float | None = None
    score: float | None = None
    description: str | None = None
    external_request: str | None = None
    rejection_reason: str | None = None


@dataclass(frozen=True)
class HeuristicListed:
    """A heuristic as ``nous heuristics`` lists it (``audit/heuristics``)."""

    id: str
    at: datetime | None = None
    status: str | None = None
    domain: str | None = None
    usage_count: int = 0
    trajectories: int = 0
    content: str | None = None
    prune_reason: str | None = None


@dataclass(frozen=True)
class TrajectoryListed:
    """A practice trajectory a heuristic was distilled from."""

    id: str
    at: datetime | None = None
    domain: str | None = None
    problem: str | None = None
    approach: str | None = None
    success: bool | None = None
    partial_score: float | None = None
    tests_passed: int | None = None
    tests_total: int | None = None


@dataclass(frozen=True)
class TrialListed:
    """A heuristic's paired trial, as ``nous heuristics show`` prints it."""

    id: str
    at: datetime | None = None
    verdict: str | None = None
    with_only: int = 0
    without_only: int = 0
    p_value: float | None = None
    reason: str | None = None
    problems: list[str] = field(default_factory=list)
    with_passed: list[bool] = field(default_factory=list)
    without_passed: list[bool] = field(default_factory=list)


@dataclass(frozen=True)
class HeuristicDetail:
    """One heuristic with its trajectories and trials (``audit/heuristic``)."""

    heuristic: HeuristicRow
    trajectories: tuple[TrajectoryListed, ...]
    trials: tuple[TrialListed, ...]


@dataclass(frozen=True)
class ObservationSeen:
    """An observation a decision considered."""

    id: str
    at: datetime | None = None
    type: str | None = None
    urgency: str | None = None
    category: str | None = None
    path: str | None = None


@dataclass(frozen=True)
class PastDecision:
    """A past decision recall showed a decision."""

    id: str
    at: datetime | None = None
    type: str | None = None
    path: str | None = None
    outcome_success: bool | None = None


@dataclass(frozen=True)
class PatternSeen:
    """The pattern a decision matched, with its counts."""

    key: str
    total: int = 0
    successes: int = 0


@dataclass(frozen=True)
class TemplateUsed:
    """The action template a decision used."""

    name: str
    version: str | None = None
    target: str | None = None


@dataclass(frozen=True)
class HeuristicApplied:
    """A heuristic a decision applied."""

    id: str
    domain: str | None = None
    content: str | None = None
    status: str | None = None


@dataclass(frozen=True)
class StepRow:
    """One reasoning step of a decision (``audit/decision_steps``)."""

    order: int | None = None
    name: str | None = None
    reasoner: str | None = None
    model: str | None = None
    input_summary: str | None = None
    reasoning: str | None = None
    confidence_delta: float | None = None
    latency_ms: float | None = None
    tokens: int | None = None
    error: str | None = None
    output: str | None = None
    call_id: str | None = None


@dataclass(frozen=True)
class AttemptRow:
    """One execution of a decision (``audit/executions_for_decision``)."""

    id: str
    attempt: int | None = None
    target: str | None = None
    success: bool | None = None
    return_code: int | None = None
    timed_out: bool | None = None
    failure_type: str | None = None
    verdict: str | None = None
    error: str | None = None
    duration_s: float | None = None
    at: datetime | None = None
    ended_at: datetime | None = None
    dry_run: bool = False
    validation_passed: bool | None = None
    validation: str | None = None
    retry_of_attempt: int | None = None


@dataclass(frozen=True)
class EscalationRaised:
    """An escalation a decision raised (``audit/escalations_for_decision``)."""

    id: str
    at: datetime | None = None
    reason: str | None = None
    priority: str | None = None
    status: str | None = None
    message: str | None = None


@dataclass(frozen=True)
class Learned:
    """A lesson or censor a decision taught (``audit/lessons_for_decision``)."""

    kind: str
    id: str
    type: str | None = None
    text: str | None = None
    severity: str | None = None


@dataclass(frozen=True)
class DecisionStory:
    """Everything about one decision (``audit/decision`` and the four statements of its parts)."""

    decision: Decision
    observations: tuple[ObservationSeen, ...] = ()
    recalled: tuple[PastDecision, ...] = ()
    pattern: PatternSeen | None = None
    template: TemplateUsed | None = None
    heuristics: tuple[HeuristicApplied, ...] = ()
    episode_id: str | None = None
    steps: tuple[StepRow, ...] = ()
    executions: tuple[AttemptRow, ...] = ()
    escalations: tuple[EscalationRaised, ...] = ()
    learned: tuple[Learned, ...] = ()


@dataclass(frozen=True)
class AuditTable:
    """Any audit statement's rows, run by name (``nous audit NAME``): columns vary by statement."""

    columns: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]


@dataclass(frozen=True)
class GoalDone:
    """A goal marked done (``admin/complete_goal``)."""

    id: str
    description: str | None = None
    completed_at: datetime | None = None


@dataclass(frozen=True)
class CensorLifted:
    """A censor lifted (``admin/lift_censor``)."""

    id: str
    status: str | None = None
    severity: str | None = None
    trigger_pattern: str | None = None


@dataclass(frozen=True)
class EscalationClosed:
    """An escalation resolved or dismissed (``admin/close_escalation``)."""

    id: str
    status: str | None = None
    decision_id: str | None = None
    reopened: int = 0
    """Observations handed back to the loop (with ``retry``)."""


@dataclass(frozen=True)
class HeuristicRetired:
    """A heuristic retired (``admin/retire_heuristic``)."""

    id: str
    status: str | None = None
    domain: str | None = None
