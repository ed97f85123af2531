"""Decisions, reasoning steps, executions, escalations, goals, frames (seed 000 Part II)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graph.models.base import Node


class DecisionType(StrEnum):
    """What the agent decided to do about a batch of observations."""

    ACT = "act"
    WAIT = "wait"
    INVESTIGATE = "investigate"
    ESCALATE = "escalate"


class DecisionStatus(StrEnum):
    """Where a decision stands; the allowed moves are in :mod:`graph.store.decisions`."""

    DECIDED = "decided"
    DELIBERATING = "deliberating"
    ACTING = "acting"
    WAITING = "waiting"
    INVESTIGATING = "investigating"
    DONE = "done"
    FAILED = "failed"
    ESCALATED = "escalated"
    SUPERSEDED = "superseded"
    CLOSED = "closed"
    RETRY_REQUESTED = "retry_requested"  # a person resolved its escalation with --retry


class ActionTarget(StrEnum):
    """Who carries out an ACT decision."""

    CLAUDE_CODE = "claude_code"
    CLAUDE_FLOW = "claude_flow"
    INTERNAL = "internal"
    DRY_RUN = "dry_run"
    COMMAND = "command"
    """A template's own command line (a project's test command), exit status read."""


class ReasonerKind(StrEnum):
    """Which reasoner produced a step or a decision."""

    LLM = "llm"
    RULES = "rules"


class StepName(StrEnum):
    """The five steps of seed 000 section 2.2, in order, and what an investigation found."""

    OBSERVE = "OBSERVE"
    CATEGORIZE = "CATEGORIZE"
    MATCH_PATTERN = "MATCH_PATTERN"
    EVALUATE = "EVALUATE"
    DECIDE = "DECIDE"
    INVESTIGATE = "INVESTIGATE"
    """Not one of the five: what an investigation found, the first step of its re-decision."""


class ReasoningStep(Node):
    """One step of a deliberation: what went in, what came out, who produced it."""

    name: StepName
    order: int
    reasoner: ReasonerKind
    model: str | None = None
    input_summary: str = ""
    output: dict[str, Any] = Field(default_factory=dict)
    confidence_delta: float = 0.0
    reasoning: str = ""
    latency_ms: float = 0.0
    tokens: int = 0
    error: str | None = None
    # The LLM request this step came from; several steps share one in single_call mode.
    call_id: str | None = None


class Decision(Node):
    """A decision about one batch of observations, with the facts recall grouped it by."""

    type: DecisionType
    confidence: float
    raw_confidence: float | None = None
    reasoning: str = ""
    reasoner: ReasonerKind = ReasonerKind.RULES
    model: str | None = None
    frame: str | None = None
    template: str | None = None
    template_version: int | None = None
    target: ActionTarget | None = None
    prompt: str | None = None
    category: str | None = None
    observation_type: str | None = None
    path: str | None = None
    path_pattern: str | None = None
    pattern_key: str | None = None
    is_critical: bool = False
    wait_timeout_s: float | None = None
    wait_until: datetime | None = None
    wait_round: int = 0
    investigation_round: int = 0
    investigation_questions: list[str] = Field(default_factory=list)
    escalation_reason: str | None = None
    escalation_priority: str | None = None
    executed: bool = False
    outcome: str | None = None
    outcome_success: bool | None = None
    outcome_at: datetime | None = None
    # Later changes to its file settled by this decision, when no template could act on
    # them either (the loop's quiet path: no new decision for each).
    folded_changes: int = 0
    status: DecisionStatus = DecisionStatus.DECIDED


class OpenDecision(BaseModel):
    """A WAIT or INVESTIGATE decision the loop looks at again, with what its chain carries.

    ``observation_ids`` are the observations it considered; the
    ``investigation_*`` fields are what its investigation found (empty for a WAIT).
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    decision: Decision
    observation_ids: list[str] = Field(default_factory=list)
    investigation_findings: list[str] = Field(default_factory=list)
    investigation_answers: list[str] = Field(default_factory=list)
    investigation_new: bool | None = None
    investigation_model: str | None = None

    @property
    def investigation(self) -> dict[str, Any]:
        """The investigation's questions and findings, as the INVESTIGATE step reads them."""
        return {
            "investigation_questions": list(self.decision.investigation_questions),
            "investigation_findings": list(self.investigation_findings),
            "investigation_answers": list(self.investigation_answers),
            "investigation_new": self.investigation_new,
            "investigation_model": self.investigation_model,
        }


class Execution(Node):
    """One run of an action (a retry is a new Execution, ``RETRY_OF`` the one before)."""

    decision_id: str
    attempt: int = 1
    target: ActionTarget
    template: str | None = None
    command: list[str] = Field(default_factory=list)
    prompt: str | None = None
    return_code: int | None = None
    duration_s: float | None = None
    success: bool | None = None
    timed_out: bool = False
    output_excerpt: str = ""
    error: str | None = None
    failure_type: str | None = None
    verdict: str | None = None
    cost_usd: float | None = None
    num_turns: int | None = None
    ended_at: datetime | None = None
    retry_of: str | None = None
    dry_run: bool = False
    """Made by a dry run: nothing was executed, so nothing is learned from it."""
    validation_passed: bool | None = None
    """The template's success criteria, checked over the root after the run."""
    validation: str | None = None


class Escalation(Node):
    """A decision handed to a person, with seed 002's message."""

    decision_id: str
    reason: str
    priority: str = "medium"
    message: str = ""
    status: str = "open"


class Goal(Node):
    """A standing goal shown to every decision."""

    description: str
    priority: str = "medium"
    completed_at: datetime | None = None
