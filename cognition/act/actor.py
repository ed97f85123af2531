"""Carrying out an ACT decision: budget, executor, Execution nodes, complete / retry / escalate.

Each attempt is an ``Execution`` node written before the child process starts (so the
agent's own edits can point at it) and finished when it ends. Seed 002's monitor, handed in
as an :class:`AttemptJudge` (the monitor stage comes after this one), decides after every
attempt: complete, retry with a refined prompt (``RETRY_OF`` the attempt before), or
escalate. The action budget bounds attempts per hour and at once; an action over budget is
deferred, not dropped.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cognition.act.action import DRY_RUN_OUTCOME, ActOutcome, AttemptJudge, PlannedAction
from cognition.act.attribution import ActiveExecutions
from cognition.act.budget import ActionBudget
from cognition.act.criteria import snapshot, validate
from cognition.act.escalate import escalate
from cognition.act.executors import (
    DescribesCommand,
    ExecutionRequest,
    ExecutionResult,
    Executor,
)
from graph.models import ActionTarget, Decision, Execution, utc_now
from graph.models.outcome import FailureAnalysis, FailureType, Verdict
from graph.store.decisions import DecisionStore
from graph.store.rows.decide import ExecutionEnd

log = logging.getLogger(__name__)


@dataclass
class _Attempts:
    """One action's attempts so far: what ran, the last failure, the prompt of the next."""

    executor: Executor
    dry_run: bool
    prompt: str
    results: list[ExecutionResult] = field(default_factory=list)
    previous: str | None = None
    """The last attempt's execution id (the next one is ``RETRY_OF`` it)."""
    failure: FailureAnalysis | None = None


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
        and the first new attempt is ``RETRY_OF`` that one. Each attempt is
        :meth:`_attempt` (run, validate, judge, record); between attempts the
        judge refines the prompt; at the end :meth:`_give_up` escalates.
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
        run = _Attempts(executor, bool(getattr(executor, "dry_run", False)), action.prompt)
        run.previous = retry_of
        async with ticket:
            for attempt in range(max(1, first_attempt), action.max_retries + 2):
                verdict = await self._attempt(decision, action, run, attempt)
                if verdict is Verdict.COMPLETE:
                    return ActOutcome(
                        True,
                        attempt,
                        run.previous,
                        results=run.results,
                        dry_run=run.dry_run,
                        settled=run.dry_run,
                    )
                if verdict is Verdict.ESCALATE:
                    break
                assert run.failure is not None  # a retry follows a failure
                run.prompt = self.judge.retry_prompt(
                    action.prompt, run.failure, attempt, action.max_retries
                )
        return await self._give_up(decision, action, run, first_attempt, retry_of)

    async def _attempt(
        self, decision: Decision, action: PlannedAction, run: _Attempts, attempt: int
    ) -> Verdict:
        """One attempt: its Execution node, the run, validation, the judge's verdict, the record."""
        execution, request = self._new_attempt(decision, action, run, attempt)
        if not run.dry_run:  # a dry run's attempt is written once, when it has ended (_record)
            await self.decisions.start_execution(execution, decision)
        result, validated, report = await self._run_and_validate(action, run, request)
        run.results.append(result)
        run.failure = self._failure(result, validated, report)
        verdict = self.judge.verdict(
            result.success, validated, attempt - 1, action.max_retries, run.failure
        )
        checked = bool(action.success_criteria) and not run.dry_run
        ended: ExecutionEnd = {
            "failure_type": run.failure.failure_type.value if run.failure else None,
            "verdict": verdict.verdict.value,
            "validation_passed": validated if checked else None,
            "validation": report,
        }
        await self._record(execution, decision, result, ended)
        run.previous = execution.id
        return verdict.verdict

    async def dry_run_at_once(
        self, decision: Decision, action: PlannedAction
    ) -> tuple[Execution, ActOutcome] | None:
        """A dry run's first attempt, run before its decision is written; it writes nothing.

        Nothing runs, so the caller writes the decision, this ended Execution and the
        settlement (:data:`DRY_RUN_OUTCOME`) in one statement. None when the executor is
        not a dry run, the budget refuses a ticket now, or the attempt failed or did not
        complete: then the action goes the usual way (:meth:`act`, once the decision is written).
        """
        executor = self.executors.get(action.target)
        if executor is None or not getattr(executor, "dry_run", False):
            return None
        ticket = self.budget.try_acquire()
        if ticket is None:
            return None
        # Held while the executor "runs": other decisions' dry runs need not wait for a write.
        async with ticket:
            run = _Attempts(executor, True, action.prompt)
            execution, request = self._new_attempt(decision, action, run, 1)
            try:
                result = await executor.execute(request)
            except Exception:  # act records and retries it (unwritten: a ticket each tick)
                log.exception("the dry run of %s failed; acting the usual way", action.target)
                return None
        failure = self._failure(result, result.success, None)
        verdict = self.judge.verdict(result.success, result.success, 0, action.max_retries, failure)
        if verdict.verdict is not Verdict.COMPLETE:
            return None  # never for the shipped dry-run executor, which always succeeds
        ended: ExecutionEnd = {
            "verdict": verdict.verdict.value,
            "failure_type": None,
            "ended_at": utc_now(),
        }
        done = execution.model_copy(update={**_result_changes(result), **ended})
        decision.outcome_success = None
        outcome = ActOutcome(True, 1, execution.id, results=[result], dry_run=True, settled=True)
        return done, outcome

    def _new_attempt(
        self, decision: Decision, action: PlannedAction, run: _Attempts, attempt: int
    ) -> tuple[Execution, ExecutionRequest]:
        """Attempt ``attempt``'s Execution (not yet written) and the request its executor gets."""
        execution = Execution(
            id=str(uuid.uuid4()),
            agent_id=decision.agent_id,
            decision_id=decision.id,
            attempt=attempt,
            target=action.target,
            template=action.template,
            prompt=run.prompt,
            retry_of=run.previous,
            dry_run=run.dry_run,
        )
        request = ExecutionRequest(
            execution_id=execution.id,
            prompt=run.prompt,
            root=self.root,
            timeout_s=action.timeout_s,
            params=dict(action.params),
            topology=action.topology,
            strategy=action.strategy,
        )
        execution.command = _command_for(run.executor, request)
        return execution, request

    async def _run_and_validate(
        self, action: PlannedAction, run: _Attempts, request: ExecutionRequest
    ) -> tuple[ExecutionResult, bool, str | None]:
        """Run the executor; check the success criteria over the root (never for a dry run)."""
        if run.dry_run:
            # Nothing runs, so no change in the root is its own: one a person makes now
            # (an upgrade rewriting many files at once) must not be attributed to it; and
            # its success criteria are never checked, so the root is not looked at.
            result = await run.executor.execute(request)
            return result, result.success, None
        checks, text = action.success_criteria, _text_params(action)
        before = await asyncio.to_thread(snapshot, self.root, checks, text)
        with self.attribution.running(request.execution_id, action.working_set):
            result = await run.executor.execute(request)
        if not (result.success and checks):
            return result, result.success, None
        validated, report = await asyncio.to_thread(validate, self.root, checks, text, before)
        return result, validated, report

    def _failure(
        self, result: ExecutionResult, validated: bool, report: str | None
    ) -> FailureAnalysis | None:
        """What went wrong, as the judge names it; None for a run that passed its checks."""
        if not result.success:
            return self.judge.failure(result)
        if not validated:
            return FailureAnalysis(
                FailureType.VALIDATION_FAILURE, "success_criteria", report or "", False
            )
        return None

    async def _record(
        self,
        execution: Execution,
        decision: Decision,
        result: ExecutionResult,
        ended: ExecutionEnd,
    ) -> None:
        """Finish the attempt's Execution node with what came of it.

        A dry run's attempt was not written at its start: nothing ran, so no
        edit of its own can point at it before it ends. Its start and end are
        one write (the whole Execution), not two; when it completes, that write
        settles its decision too (:data:`DRY_RUN_OUTCOME`), which
        :func:`cognition.learn.settle.settle_outcome` then leaves alone.
        """
        changes: ExecutionEnd = {**_result_changes(result), **ended}
        if execution.dry_run:
            ended_at = utc_now()
            done = execution.model_copy(update={**changes, "ended_at": ended_at})
            if ended["verdict"] == Verdict.COMPLETE.value:
                # What settle would write next is known now: one statement, not two.
                decision.outcome_success = None
                await self.decisions.record_dry_run(
                    done, decision, outcome=DRY_RUN_OUTCOME, outcome_at=ended_at
                )
            else:
                await self.decisions.start_execution(done, decision)
        else:
            await self.decisions.finish_execution(execution.id, **changes)

    async def _give_up(
        self,
        decision: Decision,
        action: PlannedAction,
        run: _Attempts,
        first_attempt: int,
        retry_of: str | None,
    ) -> ActOutcome:
        """Escalate an action that did not complete, saying what its last attempt did."""
        if not run.results:
            error = "no attempts left"
            await self._escalate(decision, action, first_attempt - 1, error)
            return ActOutcome(False, 0, retry_of, error=error, escalated=True)
        failure = run.failure
        why = run.results[-1].error or (
            f"validation failed:\n{failure.evidence}" if failure else None
        )
        await self._escalate(decision, action, len(run.results), why, failure)
        return ActOutcome(
            False,
            len(run.results),
            run.previous,
            error=why,
            failure_type=failure.failure_type.value if failure else None,
            escalated=True,
            results=run.results,
            dry_run=run.dry_run,
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


def _result_changes(result: ExecutionResult) -> ExecutionEnd:
    """An attempt's Execution properties from its executor's result."""
    return {
        "command": result.command,
        "return_code": result.return_code,
        "duration_s": result.duration_s,
        "success": result.success,
        "timed_out": result.timed_out,
        "output_excerpt": result.output,
        "error": result.error,
        "cost_usd": result.cost_usd,
        "num_turns": result.num_turns,
    }


def _text_params(action: PlannedAction) -> dict[str, str]:
    """The action's parameter values as text, for the placeholders of its success criteria."""
    return {k: str(v) for k, v in action.params.items() if isinstance(v, str | int)}


def _command_for(executor: Executor, request: ExecutionRequest) -> list[str]:
    if isinstance(executor, DescribesCommand):
        return executor.command_for(request)
    return [executor.name]
