"""Settling a decision: what came of it is recorded, and, when something real happened, learned.

:func:`learn_outcome` is the one place where an outcome is learned: pattern
statistics, calibration, lessons, and the same outcome for the WAIT and
INVESTIGATE decisions that led up to it (``SUPERSEDES``). It never runs for a
dry run: a dry run's "success" is that nothing was executed, and counting it
would lend a later live run confidence earned by nothing.

What counts as success, per decision type: an ACT whose action completed (and
passed its success criteria); a WAIT closed after its looks with nothing new
(waiting was right); an escalation, of any kind, is a failure to handle the
matter without a person. A WAIT or INVESTIGATE that was decided again takes
the outcome its last successor eventually had.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from cognition.act.action import DRY_RUN_OUTCOME, ActOutcome
from cognition.learn.learner import CensorBook, OutcomeLearner, works_here
from cognition.learn.test_failures import remember_failed_tests
from cognition.monitor import is_transient
from graph.models import (
    Decision,
    DecisionStatus,
    DecisionType,
    Lesson,
    Observation,
    ObservationType,
    utc_now,
)
from graph.models.learn import path_pattern_key
from graph.models.observe import Category, Urgency
from graph.store.censors import censor_trigger
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory
from graph.store.rows.decide import DecisionChanges

log = logging.getLogger(__name__)


async def learn_outcome(
    learner: OutcomeLearner,
    decision: Decision,
    *,
    success: bool,
    dry_run: bool = False,
    error: str | None = None,
    execution_id: str | None = None,
    failure_type: str | None = None,
) -> list[Lesson]:
    """Learn from what came of ``decision`` (never from a dry run); the lessons written."""
    if dry_run or learner.dry_run:
        log.info("decision %s ran dry: recorded, not learned from", decision.id)
        return []
    if decision.type is DecisionType.ACT:
        lessons = await learner.learn(
            decision,
            success=success,
            error=error,
            execution_id=execution_id,
            failure_type=failure_type,
        )
    else:
        # Seed 000's lessons are about acting; other decisions count in their pattern.
        lessons = []
        await learner.count(decision.id, decision.pattern_key, decision.confidence, success)
    await learner.settle_chain(decision.id, success=success)
    return lessons


async def settle_outcome(
    decision: Decision,
    outcome: ActOutcome,
    primary: Observation | None,
    memory: Memory,
    learner: OutcomeLearner,
    censors: CensorBook,
    *,
    retry_after: timedelta,
    max_attempts: int,
    changed: Sequence[str] = (),
) -> None:
    """Record what an action came to; learn from it; for a live failure, a censor and a task_failed.

    A failed test run is remembered against the files ``changed`` before it (a burst's).

    The ``task_failed`` observation is what seed 000's ``handle_failure``
    template triggers on; its ``error_count`` grows along a chain of
    failures, so the template's ``max_error_count`` ends it.
    """
    decisions = memory.decisions
    now = utc_now()
    if outcome.deferred_reason is not None:
        await decisions.move(
            decision,
            DecisionStatus.WAITING,
            wait_until=now + retry_after,
            outcome=f"deferred: {outcome.deferred_reason}",
        )
        return
    if outcome.dry_run:
        if not outcome.settled:  # a completed dry run was settled with its execution
            await _finish(decisions, decision, outcome, DRY_RUN_OUTCOME, success=None, at=now)
        return
    text = f"completed in {outcome.attempts} attempt(s)" if outcome.success else outcome.error
    await _finish(
        decisions, decision, outcome, text or "the action failed", success=outcome.success, at=now
    )
    await learn_outcome(
        learner,
        decision,
        success=outcome.success,
        error=outcome.error,
        execution_id=outcome.execution_id,
        failure_type=outcome.failure_type,
    )
    if outcome.success:
        await close_fixed(decisions, decision, outcome, now)
        return
    await remember_failed_tests(memory.test_runs, outcome, changed)
    await _censor_failure(decision, outcome, memory, censors)
    await memory.record_observations([task_failed(decision, outcome, primary, max_attempts)])


async def _censor_failure(
    decision: Decision, outcome: ActOutcome, memory: Memory, censors: CensorBook
) -> None:
    """A live failure that is not transient counts toward a censor on its template and path."""
    if not outcome.error or is_transient(outcome.error):
        return
    # The record on this kind of path, this failure counted, says whether a
    # repeat is a wall (block) or the exception where the action works.
    here = path_pattern_key(decision.pattern_key or "", decision.path_pattern)
    record = await memory.learning.pattern(here) if here and decision.pattern_key else None
    await censors.record_failure(
        censor_trigger(decision.template or "action", decision.path),
        reason=outcome.error,
        execution_id=outcome.execution_id,
        works_here=works_here(record),
    )


async def close_fixed(
    decisions: DecisionStore, decision: Decision, outcome: ActOutcome, at: datetime
) -> int:
    """A passing run resolves the open escalations of its template's earlier failures.

    A run whose command named its files (a test file, a burst's test files) fixes
    only the failures on those files; a command that named none (the whole suite)
    fixes every earlier failure of its template.
    """
    if decision.template is None or not outcome.results:
        return 0
    command = outcome.results[-1].command
    # The command's words are the files it named (the others match no decision's path).
    paths = list(command) if decision.path is not None and decision.path in command else None
    note = f"fixed by the run at {at:%Y-%m-%d %H:%M:%S %Z} (decision {decision.id})"
    return await decisions.close_fixed_escalations(decision.template, decision.at, paths, note)


def task_failed(
    decision: Decision, outcome: ActOutcome, primary: Observation | None, max_attempts: int
) -> Observation:
    """The observation that a live action failed, for ``handle_failure`` to pick up.

    ``primary`` is the observation the decision acted on; None (a retry after a restart)
    starts the chain of failures afresh.
    """
    earlier = primary.metadata.get("error_count", 0) if primary is not None else 0
    count = (earlier if isinstance(earlier, int) else 0) + 1
    return Observation(
        agent_id=decision.agent_id,
        type=ObservationType.TASK_FAILED,
        urgency=Urgency.CRITICAL,
        category=Category.TASK_LIFECYCLE,
        # Not ABOUT the file: the failure says nothing of whether the file exists.
        metadata={
            "path": decision.path,
            "error": outcome.error or "the action failed",
            "attempt": outcome.attempts,
            "max_attempts": max_attempts,
            "error_count": count,
            "template": decision.template,
            "decision_id": decision.id,
            "execution_id": outcome.execution_id,
            "failure_type": outcome.failure_type,
        },
    )


async def _finish(
    decisions: DecisionStore,
    decision: Decision,
    outcome: ActOutcome,
    text: str,
    *,
    success: bool | None,
    at: datetime,
) -> None:
    decision.outcome_success = success
    changes: DecisionChanges = {"outcome": text, "outcome_success": success, "outcome_at": at}
    if decision.status is DecisionStatus.ESCALATED:  # the actor escalated it already
        await decisions.settle(decision.id, **changes)
        return
    status = DecisionStatus.DONE if outcome.success else DecisionStatus.FAILED
    await decisions.move(decision, status, **changes)
