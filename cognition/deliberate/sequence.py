"""The five steps of one deliberation, in order, written once for both reasoners.

OBSERVE, CATEGORIZE, MATCH_PATTERN and EVALUATE; then the confidence,
concluded from the four steps' deltas, the history adjuster and the
thresholds (never the model's to set); then DECIDE. A :class:`Step` gives one
step's outcome from a :class:`StepRequest`, which carries the rule table's
answer for that step: :class:`RulesStep` takes it, the LLM reasoner asks the
model (one request per step, or its part of one reply) and takes the rules'
answer when the model's is unusable.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, cast

from cognition.deliberate.confidence import Conclusion, conclude
from cognition.deliberate.replies import (
    REPLY_MODELS,
    ObserveReply,
    R,
    StepOutcome,
    StepReply,
    Trace,
    input_summary,
    rules_outcome,
)
from cognition.deliberate.rule_table import (
    categorize_by_rules,
    decide_by_rules,
    evaluate_by_rules,
    match_by_rules,
    observe_by_rules,
)
from cognition.schemas import DecisionContext
from graph.models import StepName
from graph.settings import ThresholdSettings


@dataclass(frozen=True)
class StepRequest(Generic[R]):
    """One step to take: its reply model, the rules' answer, what went in, what came before."""

    name: StepName
    schema: type[R]
    rules: Callable[[], R]
    """The rule table's answer: the rules reasoner's step, and the LLM's fallback."""
    summary: str
    earlier: Mapping[StepName, StepReply]
    verdict: Conclusion | None = None
    """The concluded confidence and decision type; set for DECIDE only."""


class Step(Protocol):
    """How a reasoner takes one step."""

    async def take(self, request: StepRequest[R]) -> StepOutcome[R]:
        """The step's outcome (never raises for what a model does)."""
        ...


class RulesStep:
    """Every step by the rule table."""

    async def take(self, request: StepRequest[R]) -> StepOutcome[R]:
        """The rules' answer, timed."""
        started = time.perf_counter()
        return rules_outcome(request.name, request.rules(), request.summary, started=started)


async def deliberate_in_steps(
    context: DecisionContext, thresholds: ThresholdSettings, step: Step
) -> tuple[Trace, Conclusion]:
    """The five steps in order through ``step``, and the conclusion DECIDE explains."""
    earlier: dict[StepName, StepReply] = {}

    async def take(
        name: StepName, rules: Callable[[], R], verdict: Conclusion | None = None
    ) -> StepOutcome[R]:
        schema = cast(type[R], REPLY_MODELS[name])
        summary = _summary(name, context, earlier, verdict)
        outcome = await step.take(StepRequest(name, schema, rules, summary, dict(earlier), verdict))
        earlier[name] = outcome.reply
        return outcome

    obs = await take(StepName.OBSERVE, lambda: observe_by_rules(context))
    observe = obs.reply
    cat = await take(StepName.CATEGORIZE, lambda: categorize_by_rules(context, observe))
    mat = await take(StepName.MATCH_PATTERN, lambda: match_by_rules(context))
    match = mat.reply
    ev = await take(StepName.EVALUATE, lambda: evaluate_by_rules(context, observe, match))
    verdict = conclude(
        context,
        significance=observe.significance,
        recommended_template=match.recommended_template,
        deltas=[(o.name, o.reply.delta()) for o in (obs, cat, mat, ev)],
        thresholds=thresholds,
    )
    dec = await take(StepName.DECIDE, lambda: decide_by_rules(context, verdict), verdict)
    return Trace(obs, cat, mat, ev, dec), verdict


def _summary(
    name: StepName,
    context: DecisionContext,
    earlier: Mapping[StepName, StepReply],
    verdict: Conclusion | None,
) -> str:
    """What went into a step, as its ``ReasoningStep`` records it."""
    observe = earlier.get(StepName.OBSERVE)
    if name is StepName.CATEGORIZE and isinstance(observe, ObserveReply):
        return observe.brief_summary
    if name is StepName.DECIDE and verdict is not None:
        return f"Final decision with {verdict.confidence:.2f} confidence"
    return input_summary(name, context)
