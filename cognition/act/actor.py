"""Carrying out an ACT decision: budget, executor, Execution nodes, complete / retry / escalate.

Each attempt is an ``Execution`` node written before the child process
starts (so the agent's own edits can point at it) and finished when it
ends. Seed 002's monitor, handed in as an :class:`AttemptJudge` (the
monitor stage comes after this one, so the actor knows it only by this
interface), decides after every attempt: complete, retry with a refined
prompt (``RETRY_OF`` the attempt before), or escalate with its message.
The action budget bounds attempts per hour and at once; an action over
budget is deferred, not dropped.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from cognition.act.attribution import ActiveExecutions
from cognition.act.budget import ActionBudget
from cognition.act.criteria import Criterion, snapshot, validate
from cognition.act.escalate import escalate
from cognition.act.executors import (
    DescribesCommand,
    ExecutionRequest,
    ExecutionResult,
    Executor,
)
from graph.models import ActionTarget, Decision, DecisionStatus, Execution, utc_now
from graph.models.outcome import FailureAnalysis, FailureType, Verdict, VerdictDetail
from graph.store.decisions import DecisionStore, check_transition

log = logging.getLogger(__name__)


class AttemptJudge(Protocol):
    """What the monitor says of an attempt: implemented by :class:`cognition.monitor.Monitor`."""

    def failure(self, result: ExecutionResult) -> FailureAnalysis:
        """The failure a failed attempt had, named from its output and error."""
        ...

    def verdict(
        self, success: bool, validated: bool, retries: int, max_retries: int,
        failure: FailureAnalysis | None,
    ) -> VerdictDetail:  # fmt: skip
        """Complete, retry or escalate, with the reason."""
        ...

    def retry_prompt(
        self, prompt: str, failure: FailureAnalysis, attempt: int, max_retries: int
    ) -> str:
        """The prompt of the next attempt, refined for the failure."""
        ...

    def escalation_message(
        self, task: str, attempts: int, error: str | None, failure: FailureAnalysis | None,
        decision_id: str,
    ) -> str:  # fmt: skip
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


@dataclass(eq=False)  # a part with identity, not a value
class Actor:
    """Runs planned actions through the executors and records every attempt.

    ``judge`` is the monitor that decides after each attempt; ``root`` the
    watched folder the actions run in.
    """

    decisions: DecisionStore
    executors: Mapping[ActionTarget, Executor]
    budget: ActionBudget
    attribution: ActiveExecutions
    root: Path
    judge: AttemptJudge

    async def act(
        self,
        decision: Decision,
        action: PlannedAction,
        *,
        first_attempt: int = 1,
        retry_of: str | None = None,
    ) -> ActOutcome:
        """Run the action until it completes, runs out of retries, or escalates.

        ``first_attempt`` and ``retry_of`` resume an action whose earlier
        attempt was interrupted (reconciliation at start): numbering goes on,
        and the first new attempt is ``RETRY_OF`` that one.
        """
        executor = self.executors.get(action.target)
        if executor is None:
            error = f"no executor for target {action.target.value}"
            await self._escalate(decision, action, 0, error)
            return ActOutcome(False, 0, None, error=error, escalated=True)
        ticket = self.budget.try_acquire()
        if ticket is None:
            reason = self.budget.reason() or "action budget exhausted"
            return ActOutcome(False, 0, None, error=reason, deferred_reason=reason)
        dry_run = bool(getattr(executor, "dry_run", False))
        results: list[ExecutionResult] = []
        previous: str | None = retry_of
        failure: FailureAnalysis | None = None
        prompt = action.prompt
        async with ticket:
            for attempt in range(max(1, first_attempt), action.max_retries + 2):
                execution = Execution(
                    id=str(uuid.uuid4()),
                    agent_id=decision.agent_id,
                    decision_id=decision.id,
                    attempt=attempt,
                    target=action.target,
                    template=action.template,
                    prompt=prompt,
                    retry_of=previous,
                    dry_run=dry_run,
                )
                decision.status = check_transition(decision.status, DecisionStatus.ACTING)
                result, failure, verdict = await self._attempt(executor, execution, action)
                results.append(result)
                previous = execution.id
                if verdict is Verdict.COMPLETE:
                    return ActOutcome(True, attempt, execution.id, results=results, dry_run=dry_run)
                if verdict is Verdict.ESCALATE:
                    break
                assert failure is not None
                prompt = self.judge.retry_prompt(
                    action.prompt, failure, attempt, action.max_retries
                )
        if not results:
            error = "no attempts left"
            await self._escalate(decision, action, first_attempt - 1, error)
            return ActOutcome(False, 0, retry_of, error=error, escalated=True)
        return await self._give_up(decision, action, results, previous, failure, dry_run)

    async def _give_up(
        self,
        decision: Decision,
        action: PlannedAction,
        results: list[ExecutionResult],
        last_execution: str | None,
        failure: FailureAnalysis | None,
        dry_run: bool,
    ) -> ActOutcome:
        """Escalate an action whose attempts did not complete it."""
        why = results[-1].error or (f"validation failed:\n{failure.evidence}" if failure else None)
        await self._escalate(decision, action, len(results), why, failure)
        return ActOutcome(
            False,
            len(results),
            last_execution,
            error=why,
            failure_type=failure.failure_type.value if failure else None,
            escalated=True,
            results=results,
            dry_run=dry_run,
        )

    async def _attempt(
        self, executor: Executor, execution: Execution, action: PlannedAction
    ) -> tuple[ExecutionResult, FailureAnalysis | None, Verdict]:
        """One attempt: recorded, run, checked against the success criteria, judged."""
        request = ExecutionRequest(
            execution_id=execution.id,
            prompt=execution.prompt or action.prompt,
            root=self.root,
            timeout_s=action.timeout_s,
            params=dict(action.params),
            topology=action.topology,
            strategy=action.strategy,
        )
        execution.command = _command_for(executor, request)
        if not execution.dry_run:  # a dry run's attempt is written once, when it has ended
            await self.decisions.start_execution(execution)
        checks, text = action.success_criteria, _text_params(action)
        before = await asyncio.to_thread(snapshot, self.root, checks, text)
        with self.attribution.running(execution.id, action.working_set):
            result = await executor.execute(request)
        validated, report = result.success, None
        if result.success and not execution.dry_run and checks:
            validated, report = await asyncio.to_thread(validate, self.root, checks, text, before)
        failure = None
        if not result.success:
            failure = self.judge.failure(result)
        elif not validated:
            failure = FailureAnalysis(
                FailureType.VALIDATION_FAILURE, "success_criteria", report or "", False
            )
        verdict = self.judge.verdict(
            result.success, validated, execution.attempt - 1, action.max_retries, failure
        )
        ended = {
            "failure_type": failure.failure_type.value if failure else None,
            "verdict": verdict.verdict.value,
            "validation_passed": validated if checks and not execution.dry_run else None,
            "validation": report,
        }
        await self._record_end(execution, result, ended)
        return result, failure, verdict.verdict

    async def _record_end(
        self, execution: Execution, result: ExecutionResult, ended: dict[str, Any]
    ) -> None:
        """How an attempt ended; a dry run's attempt, not written at its start, in one statement.

        Nothing ran in a dry run, so no edit of its own can point at the
        execution before it ends: its start and end cost one write, not two.
        """
        changes: dict[str, Any] = {
            "command": result.command,
            "return_code": result.return_code,
            "duration_s": result.duration_s,
            "success": result.success,
            "timed_out": result.timed_out,
            "output_excerpt": result.output,
            "error": result.error,
            "cost_usd": result.cost_usd,
            "num_turns": result.num_turns,
            **ended,
        }
        if execution.dry_run:
            done = execution.model_copy(update={**changes, "ended_at": utc_now()})
            await self.decisions.start_execution(done)
        else:
            await self.decisions.finish_execution(execution.id, **changes)

    async def _escalate(
        self,
        decision: Decision,
        action: PlannedAction,
        attempts: int,
        error: str | None,
        failure: FailureAnalysis | None = None,
    ) -> None:
        task = action.template or decision.template or "action"
        message = self.judge.escalation_message(
            f"{task} on {decision.path or 'the watched folder'}",
            attempts,
            error,
            failure,
            decision.id,
        )
        await escalate(
            self.decisions, decision, reason=error or "the action failed", message=message
        )


def _text_params(action: PlannedAction) -> dict[str, str]:
    """The action's parameter values as text, for the placeholders of its success criteria."""
    return {k: str(v) for k, v in action.params.items() if isinstance(v, str | int)}


def _command_for(executor: Executor, request: ExecutionRequest) -> list[str]:
    if isinstance(executor, DescribesCommand):
        return executor.command_for(request)
    return [executor.name]
