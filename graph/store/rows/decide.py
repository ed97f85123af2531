"""What a decision's record takes besides the decision: typed, as the rows that come back are."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict


@dataclass(frozen=True)
class TemplateUse:
    """The action template an ACT decision used: its ``ActionTemplate`` node's properties."""

    name: str
    version: int
    target: str


@dataclass(frozen=True)
class Settlement:
    """The outcome a decision is settled with when it is written (a dry run that completed)."""

    outcome: str
    outcome_at: datetime | None = None


class DecisionChanges(TypedDict, total=False):
    """What a store method writes on a decision beside (or without) a move of its status, as
    keyword arguments (``move(decision, to, outcome=…)``): mypy checks each name and type at
    the call. Its outcome, its next look, its investigation's findings, a turn's closing."""

    outcome: str | None
    outcome_success: bool | None
    outcome_at: datetime
    wait_until: datetime
    description: str
    confidence: float
    investigation_findings: list[str]
    investigation_answers: list[str]
    investigation_new: bool
    investigation_model: str | None


class ExecutionEnd(TypedDict, total=False):
    """How an attempt ended, as its ``Execution`` keeps it: the executor's result, the verdict,
    the success criteria's report (``finish_execution(execution_id, success=…)``)."""

    command: list[str]
    return_code: int | None
    duration_s: float
    success: bool
    timed_out: bool
    output_excerpt: str
    error: str | None
    cost_usd: float | None
    num_turns: int | None
    failure_type: str | None
    verdict: str
    validation_passed: bool | None
    validation: str | None
    ended_at: datetime
