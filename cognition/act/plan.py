"""Planning an action: from an ACT deliberation to a rendered action, or to no action at all.

:func:`plan` is the one stage between deliberation and acting. It turns an
ACT deliberation into a :class:`PlannedAction`, or downgrades it: no template
fits (Nous never acts on a free-form prompt), the template's parameters
cannot be filled for this observation, or a ``block`` censor forbids this
template on this kind of path (then a person decides).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from cognition.act.action import PlannedAction
from cognition.act.templates import TemplateRegistry, instantiate
from cognition.errors import TemplateError
from cognition.schemas import DecisionContext, Deliberation
from graph.models import ActionTarget, Censor, DecisionType
from graph.store.censors import CensorStore, censor_trigger

log = logging.getLogger(__name__)


async def plan(
    deliberation: Deliberation,
    context: DecisionContext,
    templates: TemplateRegistry,
    censors: CensorStore,
) -> tuple[PlannedAction | None, Deliberation]:
    """The action an ACT deliberation asks for (censor checked), or the deliberation downgraded."""
    planned, deliberation = plan_action(deliberation, context, templates)
    known = recalled_censors(context, censors)
    return await check_censor(planned, deliberation, context.primary.path, censors, known)


def recalled_censors(context: DecisionContext, censors: CensorStore) -> list[Censor] | None:
    """Recall's censors when they are every active one and none was written since; else None.

    Then :func:`check_censor` needs no query of its own (one round trip less per ACT).
    """
    whole = context.censors_whole_at
    return context.censors if whole is not None and whole == censors.writes else None


def plan_action(
    deliberation: Deliberation, context: DecisionContext, templates: TemplateRegistry
) -> tuple[PlannedAction | None, Deliberation]:
    """The action an ACT deliberation asks for, or the deliberation downgraded.

    Parameters come from the template's extraction rules over the
    observation and its file, and from the reasoner's ``parameters``; only
    those the template declares are passed on (each checked by its type).
    """
    if deliberation.decision_type is not DecisionType.ACT:
        return None, deliberation
    name = deliberation.template
    if name is None or name not in templates.names():
        return None, downgrade(
            deliberation, DecisionType.WAIT, "no action template fits, so Nous does not act"
        )
    template = templates.get(name)
    declared = {k: v for k, v in deliberation.parameters.items() if k in template.parameters}
    ignored = sorted(set(deliberation.parameters) - set(declared))
    if ignored:
        log.info("template %s: ignoring undeclared parameters %s", name, ", ".join(ignored))
    try:
        rendered = instantiate(
            template,
            context.primary,
            summary=deliberation.summary,
            key_facts=deliberation.key_facts,
            content_preview=context.file.content_head if context.file else None,
            extra=declared,
        )
    except TemplateError as exc:
        return None, downgrade(deliberation, DecisionType.ESCALATE, f"cannot act: {exc}")
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
            strategy=rendered.strategy,
            working_set=rendered.working_set,
            success_criteria=rendered.success_criteria,
        ),
        deliberation,
    )


async def check_censor(
    planned: PlannedAction | None,
    deliberation: Deliberation,
    path: str | None,
    censors: CensorStore,
    known: Sequence[Censor] | None = None,
) -> tuple[PlannedAction | None, Deliberation]:
    """Escalate instead of acting when a ``block`` censor names this template on this path.

    Looked up by its exact trigger in ``known``, every active censor of the
    agent when recall's list held them all and none was written since; else
    in the graph, as recall's list then shows only those the frame's budget
    has room for.
    """
    if planned is None or planned.template is None:
        return planned, deliberation
    trigger = censor_trigger(planned.template, path)
    if known is None:
        censor = await censors.censor_by_trigger(trigger)
    else:  # the oldest, as censor_by_trigger takes
        censor = min((c for c in known if c.trigger_pattern == trigger), key=_at, default=None)
    if censor is None or censor.severity != "block":
        return planned, deliberation
    why = f"blocked by censor: {censor.trigger_pattern} ({censor.reason})"
    return None, downgrade(deliberation, DecisionType.ESCALATE, why)


def _at(censor: Censor) -> datetime:
    return censor.at


def downgrade(deliberation: Deliberation, to: DecisionType, why: str) -> Deliberation:
    """The deliberation turned into a WAIT or an ESCALATE, with the reason appended."""
    return deliberation.model_copy(
        update={
            "decision_type": to,
            "template": deliberation.template if to is DecisionType.ESCALATE else None,
            "reasoning": f"{deliberation.reasoning} -> {why}",
            "escalation_reason": why if to is DecisionType.ESCALATE else None,
            "wait_timeout_s": deliberation.wait_timeout_s or 300.0,
        }
    )
