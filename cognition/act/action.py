"""What an ACT decision asks for and what came of it: the actor's inputs, outputs and judge.

:class:`PlannedAction` is a rendered ACT decision, :class:`ActOutcome` what its
attempts came to, and :class:`AttemptJudge` the monitor's part in between (seed
002's monitor implements it); :class:`cognition.act.actor.Actor` runs the one
into the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from cognition.act.criteria import Criterion
from cognition.act.executors import ExecutionResult
from graph.models import ActionTarget
from graph.models.outcome import FailureAnalysis, VerdictDetail

DRY_RUN_OUTCOME = "dry run: nothing was executed, so nothing is learned"
"""A completed dry run's decision outcome."""


class AttemptJudge(Protocol):
    """What the monitor says of an attempt: implemented by :class:`cognition.monitor.Monitor`."""

    def failure(self, result: ExecutionResult) -> FailureAnalysis:
        """The failure a failed attempt had, named from its output and error."""
        ...

    def verdict(
        self,
        success: bool,
        validated: bool,
        retries: int,
        max_retries: int,
        failure: FailureAnalysis | None,
    ) -> VerdictDetail:
        """Complete, retry or escalate, with the reason."""
        ...

    def retry_prompt(
        self, prompt: str, failure: FailureAnalysis, attempt: int, max_retries: int
    ) -> str:
        """The prompt of the next attempt, refined for the failure."""
        ...

    def escalation_message(
        self,
        task: str,
        attempts: int,
        error: str | None,
        failure: FailureAnalysis | None,
        decision_id: str,
    ) -> str:
        """What a person reads of an action that could not be completed."""
        ...


@dataclass(frozen=True)
class PlannedAction:
    """What an ACT decision asks for, after its template was rendered."""

    target: ActionTarget
    prompt: str
    template: str | None = None
    function: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    timeout_s: float | None = None
    max_retries: int = 0
    topology: str | None = None
    strategy: str | None = None
    working_set: tuple[str, ...] = ()
    """Globs of the files the action may change (attribution of its own edits)."""
    success_criteria: tuple[Criterion, ...] = ()


@dataclass(frozen=True)
class ActOutcome:
    """What came of an action: the last attempt's result, and whether a person was asked."""

    success: bool
    attempts: int
    execution_id: str | None
    error: str | None = None
    failure_type: str | None = None
    escalated: bool = False
    deferred_reason: str | None = None
    results: list[ExecutionResult] = field(default_factory=list)
    dry_run: bool = False
    """Nothing ran: the outcome is recorded, never learned from."""
    settled: bool = False
    """The decision's outcome is written already (a dry run that completed)."""
