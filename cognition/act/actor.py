"""Carrying out an ACT decision: budget, executor, Execution nodes, complete / retry / escalate.

Each attempt is an ``Execution`` node written before the child process
starts (so the agent's own edits can point at it) and finished when it
ends. Seed 002's monitor decides after every attempt: complete, retry with a
refined prompt (``RETRY_OF`` the attempt before), or escalate with its
message. The action budget bounds attempts per hour and at once; an action
over budget is deferred, not dropped.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cognition.act.attribution import ActiveExecutions
from cognition.act.budget import ActionBudget
from cognition.act.executors import (
    DescribesCommand,
    ExecutionRequest,
    ExecutionResult,
    Executor,
)
from cognition.monitor import (
    FailureAnalysis,
    Verdict,
    analyze_failure,
    decide,
    escalation_message,
    refine_prompt,
    retry_strategy,
)
from graph.models import ActionTarget, Decision, Escalation, Execution
from graph.store.decisions import DecisionStore

log = logging.getLogger(__name__)


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


class Actor:
    """Runs planned actions through the executors and records every attempt."""

    def __init__(
        self,
        decisions: DecisionStore,
        executors: Mapping[ActionTarget, Executor],
        budget: ActionBudget,
        attribution: ActiveExecutions,
        root: Path,
    ) -> None:
        self.decisions = decisions
        self.executors = executors
        self.budget = budget
        self.attribution = attribution
        self.root = root

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
                )
                request = ExecutionRequest(
                    execution_id=execution.id,
                    prompt=prompt,
                    root=self.root,
                    timeout_s=action.timeout_s,
                    params=dict(action.params),
                    topology=action.topology,
                )
                execution.command = _command_for(executor, request)
                await self.decisions.start_execution(execution)
                with self.attribution.running(execution.id):
                    result = await executor.execute(request)
                results.append(result)
                failure = None if result.success else _analyze(result)
                verdict = decide(
                    result.success, result.success, attempt - 1, action.max_retries, failure
                )
                await self.decisions.finish_execution(
                    execution.id,
                    command=result.command,
                    return_code=result.return_code,
                    duration_s=result.duration_s,
                    success=result.success,
                    timed_out=result.timed_out,
                    output_excerpt=result.output,
                    error=result.error,
                    failure_type=failure.failure_type.value if failure else None,
                    verdict=verdict.verdict.value,
                    cost_usd=result.cost_usd,
                    num_turns=result.num_turns,
                )
                previous = execution.id
                if verdict.verdict is Verdict.COMPLETE:
                    return ActOutcome(True, attempt, execution.id, results=results)
                if verdict.verdict is Verdict.ESCALATE:
                    break
                assert failure is not None
                prompt = refine_prompt(action.prompt, retry_strategy(failure, attempt))
        if not results:
            error = "no attempts left"
            await self._escalate(decision, action, first_attempt - 1, error)
            return ActOutcome(False, 0, retry_of, error=error, escalated=True)
        last = results[-1]
        await self._escalate(decision, action, len(results), last.error, failure)
        return ActOutcome(
            False,
            len(results),
            previous,
            error=last.error,
            failure_type=failure.failure_type.value if failure else None,
            escalated=True,
            results=results,
        )

    async def _escalate(
        self,
        decision: Decision,
        action: PlannedAction,
        attempts: int,
        error: str | None,
        failure: FailureAnalysis | None = None,
    ) -> None:
        task = action.template or decision.template or "action"
        message = escalation_message(
            f"{task} on {decision.path or 'the watched folder'}",
            attempts,
            error,
            failure,
            decision_id=decision.id,
        )
        await self.decisions.record_escalation(
            Escalation(
                agent_id=decision.agent_id,
                decision_id=decision.id,
                reason=error or "the action failed",
                priority="high" if decision.is_critical else "medium",
                message=message,
            )
        )
        log.warning("escalated decision %s after %d attempts: %s", decision.id, attempts, error)


def _analyze(result: ExecutionResult) -> FailureAnalysis:
    return analyze_failure(result.output, result.error, result.return_code, result.timed_out)


def _command_for(executor: Executor, request: ExecutionRequest) -> list[str]:
    if isinstance(executor, DescribesCommand):
        return executor.command_for(request)
    return [executor.name]
