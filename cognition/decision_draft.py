"""The decision a deliberation came to, before the loop writes it: its node and its steps.

Pure functions of what :class:`cognition.loop.DecisionLoop` gathered
(frame, context, deliberation, plan): nothing here reads or writes the graph.
"""

from __future__ import annotations

from cognition.act.action import PlannedAction
from cognition.act.templates import TemplateRegistry
from cognition.deliberate import pattern_key
from cognition.recall.investigate import findings_step
from cognition.schemas import DecisionContext, Deliberation
from graph.models import Decision, DecisionType, Observation, OpenDecision, ReasoningStep
from graph.models.paths import path_pattern
from graph.store.rows.decide import TemplateUse


def frame_text(observation: Observation) -> str:
    """The words a frame is chosen by: the change's type, category, path and error."""
    words = [observation.type.value.replace("_", " "), observation.category.value]
    if observation.path:
        words.append(observation.path.replace("/", " ").replace("_", " "))
    error = observation.metadata.get("error")
    if isinstance(error, str):
        words.append(error)
    return " ".join(words)


def decision_steps(
    deliberation: Deliberation, previous: OpenDecision | None, agent_id: str
) -> list[ReasoningStep]:
    """The deliberation's steps, after the INVESTIGATE step when an investigation came first."""
    found = findings_step(agent_id, previous.investigation) if previous else None
    if found is None:
        return list(deliberation.steps)
    return [found, *(s.model_copy(update={"order": s.order + 1}) for s in deliberation.steps)]


# What a decision takes over from its deliberation as it is.
_CARRIED = {
    "confidence",
    "raw_confidence",
    "reasoning",
    "reasoner",
    "model",
    "is_critical",
    "wait_timeout_s",
    "investigation_questions",
    "escalation_reason",
    "escalation_priority",
}


def draft_decision(
    deliberation: Deliberation,
    context: DecisionContext,
    frame: str,
    planned: PlannedAction | None,
    opening: dict[str, object],
) -> Decision:
    """The decision a deliberation came to, in the status ``opening`` chose (not yet written)."""
    primary = context.primary
    # Only an ACT uses a template: the pattern key and USED say what was done,
    # not what was considered (the MATCH_PATTERN step records that).
    acting = deliberation.decision_type is DecisionType.ACT
    template = deliberation.template if acting else None
    return Decision(
        agent_id=context.agent_id,
        type=deliberation.decision_type,
        frame=frame,
        template=template,
        target=planned.target if planned else None,
        prompt=planned.prompt if planned else None,
        category=primary.category.value,
        observation_type=primary.type.value,
        path=primary.path,
        path_pattern=path_pattern(primary.path),
        pattern_key=pattern_key(
            primary.category.value, primary.type.value, deliberation.decision_type, template
        ),
        **deliberation.model_dump(include=_CARRIED),
        **opening,
    )


def template_row(templates: TemplateRegistry, decision: Decision) -> TemplateUse | None:
    """The ``ActionTemplate`` node an ACT decision used (name, version, target), or None."""
    if decision.template is None:
        return None
    template = templates.get(decision.template)
    return TemplateUse(template.name, template.version, template.target)
