"""Between deliberation and action, and after it: planning the action, settling what came of it.

``plan_action`` turns an ACT deliberation into a rendered action, or
downgrades it: no template fits (Nous never acts on a free-form prompt), or
the template cannot be rendered for this observation; ``check_censor`` then
escalates instead when a ``block`` censor forbids this template on this kind
of path. ``settle_outcome``
records what an action came to and hands it to learning.
"""

from __future__ import annotations

from datetime import timedelta

from cognition.act.actor import ActOutcome, PlannedAction
from cognition.act.templates import TemplateRegistry
from cognition.errors import TemplateError
from cognition.learn.learner import CensorBook, OutcomeLearner
from cognition.monitor import is_transient
from cognition.schemas import DecisionContext, Deliberation
from graph.models import ActionTarget, Decision, DecisionType, utc_now
from graph.store.decisions import DecisionStore
from graph.store.memory import path_pattern


def censor_trigger(template: str, path: str | None) -> str:
    """The trigger a failed action's censor is filed under: template and path pattern."""
    return f"{template} on {path_pattern(path) or 'no path'}"


def plan_action(
    deliberation: Deliberation, context: DecisionContext, templates: TemplateRegistry
) -> tuple[PlannedAction | None, Deliberation]:
    """The action an ACT deliberation asks for, or the deliberation downgraded."""
    if deliberation.decision_type is not DecisionType.ACT:
        return None, deliberation
    name = deliberation.template
    if name is None or name not in templates.names():
        return None, _downgrade(
            deliberation, DecisionType.WAIT, "no action template fits, so Nous does not act"
        )
    template = templates.get(name)
    preview = context.file.content_head if context.file else None
    try:
        rendered = templates.instantiate(
            template,
            context.primary,
            summary=deliberation.summary,
            key_facts=deliberation.key_facts,
            content_preview=preview,
        )
    except TemplateError as exc:
        return None, _downgrade(deliberation, DecisionType.ESCALATE, f"cannot act: {exc}")
    return (
        PlannedAction(
            target=ActionTarget(rendered.target),
            prompt=rendered.prompt,
            template=name,
            function=rendered.function,
            params=rendered.request_params,
            timeout_s=rendered.timeout_s,
            max_retries=rendered.max_retries,
            topology=rendered.topology,
        ),
        deliberation,
    )


async def check_censor(
    planned: PlannedAction | None,
    deliberation: Deliberation,
    path: str | None,
    censors: CensorBook,
) -> tuple[PlannedAction | None, Deliberation]:
    """Escalate instead of acting when a ``block`` censor names this template on this path.

    Looked up by its exact trigger, not in recall's list, which shows only the
    censors the frame's budget has room for.
    """
    if planned is None or planned.template is None:
        return planned, deliberation
    censor = await censors.store.censor_by_trigger(censor_trigger(planned.template, path))
    if censor is None or censor.severity != "block":
        return planned, deliberation
    why = f"blocked by censor: {censor.trigger_pattern} ({censor.reason})"
    return None, _downgrade(deliberation, DecisionType.ESCALATE, why)


async def settle_outcome(
    decision: Decision,
    outcome: ActOutcome,
    decisions: DecisionStore,
    learner: OutcomeLearner,
    censors: CensorBook,
    *,
    retry_after: timedelta,
) -> None:
    """Record what an action came to; learn from it; file a censor for a lasting failure."""
    now = utc_now()
    if outcome.deferred_reason is not None:
        decision.status = "waiting"
        await decisions.settle(
            decision.id,
            status="waiting",
            wait_until=now + retry_after,
            outcome=f"deferred: {outcome.deferred_reason}",
        )
        return
    decision.outcome_success, decision.outcome_at = outcome.success, now
    if outcome.success:
        decision.status = "done"
        await decisions.settle(
            decision.id,
            status="done",
            outcome=f"completed in {outcome.attempts} attempt(s)",
            outcome_success=True,
            outcome_at=now,
        )
    else:
        decision.status = "escalated" if outcome.escalated else "failed"
        await decisions.settle(
            decision.id,
            status=decision.status,
            outcome=outcome.error or "failed",
            outcome_success=False,
            outcome_at=now,
        )
    await learner.learn(
        decision,
        success=outcome.success,
        error=outcome.error,
        execution_id=outcome.execution_id,
        failure_type=outcome.failure_type,
    )
    if not outcome.success and outcome.error and not is_transient(outcome.error):
        await censors.record_failure(
            censor_trigger(decision.template or "action", decision.path),
            reason=outcome.error,
            execution_id=outcome.execution_id,
        )


def _downgrade(deliberation: Deliberation, to: DecisionType, why: str) -> Deliberation:
    return deliberation.model_copy(
        update={
            "decision_type": to,
            "template": deliberation.template if to is DecisionType.ESCALATE else None,
            "reasoning": f"{deliberation.reasoning} -> {why}",
            "escalation_reason": why if to is DecisionType.ESCALATE else None,
            "wait_timeout_s": deliberation.wait_timeout_s or 300.0,
        }
    )
