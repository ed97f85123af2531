"""Reconciliation at start: settle what a killed daemon left behind, before the first tick.

A daemon killed while an action ran leaves an ``Execution`` with no end and
its decision ``acting`` forever; its episode stays open; and the action
budget, counted in memory, starts again from zero. At start, before the
first tick, for this agent:

* every execution with no end is finished as ``failure_type: interrupted``,
  and seed 002's monitor decides for its decision: retry (a new attempt
  ``RETRY_OF`` it) when attempts remain and the template is ``repeatable``,
  escalate otherwise;
* the open episodes of earlier daemon runs end with outcome ``interrupted``;
* the budget counts the actions of the last hour from the graph.

Each reconciliation is an ``Event``; the banner shows the counts. The
bookkeeping runs in :meth:`Reconciler.reconcile`; the retries themselves run
in :meth:`Reconciler.retry`, a task of their own, so a long action does not
hold up the start.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import KW_ONLY, dataclass, field
from datetime import timedelta
from typing import Any

from cognition.act.action import PlannedAction
from cognition.act.actor import Actor
from cognition.act.budget import WINDOW_S, ActionBudget
from cognition.act.command import ARGV_PARAM
from cognition.act.executors import FUNCTION_PARAM
from cognition.act.render import PLACEHOLDER
from cognition.act.templates import TemplateRegistry
from cognition.learn.learner import CensorBook, OutcomeLearner
from cognition.learn.settle import settle_outcome
from cognition.monitor import Verdict, decide, escalation_message
from graph.models import ActionTarget, Decision, Escalation, utc_now
from graph.store.memory import Memory
from graph.store.recovery import Unfinished

log = logging.getLogger(__name__)

INTERRUPTED = "interrupted"
INTERRUPTED_ERROR = "interrupted: the daemon stopped while this attempt ran"


@dataclass
class Reconciliation:
    """What reconciliation found and did."""

    interrupted: int = 0
    escalated: int = 0
    episodes_ended: int = 0
    actions_last_hour: int = 0
    retries: list[tuple[Decision, PlannedAction, int, str]] = field(default_factory=list)

    def describe(self) -> str:
        """One line for the banner."""
        return (
            f"{self.interrupted} interrupted execution(s): {len(self.retries)} to retry,"
            f" {self.escalated} escalated; {self.episodes_ended} open episode(s) ended;"
            f" {self.actions_last_hour} action(s) in the last hour"
        )


@dataclass
class LoopParts:
    """The parts of the decision loop reconciliation uses."""

    memory: Memory
    actor: Actor
    templates: TemplateRegistry
    learner: OutcomeLearner
    censors: CensorBook
    retry_after: timedelta


@dataclass(eq=False)  # a part with identity, not a value
class Reconciler:
    """Settles interrupted executions, open episodes and the budget for one agent."""

    memory: Memory
    budget: ActionBudget
    parts: LoopParts
    _: KW_ONLY
    session_id: str
    _task: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    async def reconcile(self) -> Reconciliation:
        """The bookkeeping, before the first tick; retries are left in the result."""
        result = Reconciliation()
        for unfinished in await self.memory.recovery.unfinished_executions():
            await self._interrupted(unfinished, result)
        for episode_id in await self.memory.recovery.open_daemon_episodes(self.session_id):
            _, ended = await self.memory.episodes.end_episode(
                episode_id, outcome=INTERRUPTED, summary="the daemon stopped without ending it"
            )
            if ended:
                result.episodes_ended += 1
                await self._event("reconciled_episode", {"episode_id": episode_id})
        now = utc_now()
        starts = await self.memory.recovery.actions_since(now - timedelta(seconds=WINDOW_S))
        self.budget.count_earlier([(now - started).total_seconds() for started in starts])
        result.actions_last_hour = len(starts)
        if starts:
            await self._event("reconciled_budget", {"actions_last_hour": len(starts)})
        if result.interrupted or result.episodes_ended:
            log.warning("reconciled at start: %s", result.describe())
        return result

    def start_retries(self, result: Reconciliation) -> None:
        """Run the retries in a task of their own (see :meth:`stop`)."""
        if result.retries and self._task is None:
            self._task = asyncio.create_task(self.retry(result), name="nous-reconcile-retries")

    async def retry(self, result: Reconciliation) -> None:
        """Carry out the retries one after another, each settled like any action."""
        parts = self.parts
        for decision, planned, attempt, retry_of in result.retries:
            try:
                outcome = await parts.actor.act(
                    decision, planned, first_attempt=attempt, retry_of=retry_of
                )
                await settle_outcome(
                    decision,
                    outcome,
                    None,  # the observation acted on is not kept with the decision
                    parts.memory,
                    parts.learner,
                    parts.censors,
                    retry_after=parts.retry_after,
                    max_attempts=planned.max_retries + 1,
                )
            except Exception:
                log.exception("retrying interrupted decision %s failed", decision.id)

    async def stop(self, timeout_s: float) -> None:
        """Let a retry in hand finish, or cancel it (killing its child) after ``timeout_s``."""
        task = self._task
        if task is None or task.done():
            return
        done, _ = await asyncio.wait({task}, timeout=timeout_s)
        if not done:
            task.cancel()
            await asyncio.wait({task})

    async def _interrupted(self, unfinished: Unfinished, result: Reconciliation) -> None:
        execution, decision = unfinished.execution, unfinished.decision
        planned, why_not = self._replan(decision)
        max_retries = planned.max_retries if planned is not None else 0
        verdict = decide(False, False, execution.attempt - 1, max_retries)
        retry = planned is not None and verdict.verdict is Verdict.RETRY
        action = Verdict.RETRY if retry else Verdict.ESCALATE
        await self.parts.memory.decisions.finish_execution(
            execution.id,
            success=False,
            error=INTERRUPTED_ERROR,
            failure_type=INTERRUPTED,
            verdict=action.value,
        )
        result.interrupted += 1
        if action is Verdict.RETRY and planned is not None:
            result.retries.append((decision, planned, execution.attempt + 1, execution.id))
        else:
            reason = why_not or f"{INTERRUPTED_ERROR}; {verdict.details}"
            await self._escalate(decision, execution.attempt, reason)
            result.escalated += 1
        await self._event(
            "reconciled_execution",
            {
                "execution_id": execution.id,
                "decision_id": decision.id,
                "attempt": execution.attempt,
                "verdict": action.value,
            },
        )

    def _replan(self, decision: Decision) -> tuple[PlannedAction | None, str | None]:
        """The action to run again, or None with the reason it cannot be."""
        templates = self.parts.templates
        if decision.target is None or decision.prompt is None:
            return None, f"{INTERRUPTED_ERROR}; the decision recorded no action to run again"
        if decision.template is None or decision.template not in templates:
            return None, f"{INTERRUPTED_ERROR}; its template is no longer loaded"
        template = templates.get(decision.template)
        if not template.repeatable:
            return None, f"{INTERRUPTED_ERROR}; template {template.name!r} is not repeatable"
        params: dict[str, Any] = {}
        if template.function is not None:
            if template.parameters:
                # Their values were rendered into a request that was not recorded.
                return None, f"{INTERRUPTED_ERROR}; its parameters were not recorded"
            params[FUNCTION_PARAM] = template.function
        if template.command:
            if any(PLACEHOLDER.search(word) for word in template.command):
                return None, f"{INTERRUPTED_ERROR}; its command's paths were not recorded"
            params[ARGV_PARAM] = list(template.command)
        return (
            PlannedAction(
                target=ActionTarget(decision.target),
                prompt=decision.prompt,
                template=template.name,
                function=template.function,
                params=params,
                timeout_s=template.timeout_seconds,
                max_retries=template.max_retries,
                topology=template.topology,
            ),
            None,
        )

    async def _escalate(self, decision: Decision, attempts: int, reason: str) -> None:
        task = f"{decision.template or 'action'} on {decision.path or 'the watched folder'}"
        await self.parts.memory.decisions.record_escalation(
            Escalation(
                agent_id=decision.agent_id,
                decision_id=decision.id,
                reason=reason,
                priority="high" if decision.is_critical else "medium",
                message=escalation_message(task, attempts, reason, decision_id=decision.id),
            )
        )
        await self.parts.memory.decisions.settle(
            decision.id, outcome=reason, outcome_success=False, outcome_at=utc_now()
        )

    async def _event(self, kind: str, data: dict[str, object]) -> None:
        await self.memory.events.emit(kind, data, session_id=self.session_id)
