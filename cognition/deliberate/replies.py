"""What each of the five steps concludes, and how five conclusions become a Deliberation.

The reply models are what the LLM must send for each step (seed 000 section
2.2's fields) and what the rules reasoner produces for the same step, so a
step that falls back slots into the chain unchanged. They are tolerant where
a model's slip is harmless: case and spaces in enums, ``"none"`` for no
template, a string where a list was asked, a percentage for a probability,
unknown extra fields (:mod:`cognition.deliberate.lenient`). What cannot be
read sensibly fails validation, and the client's one repair attempt (then
the rules) takes over. Advisory numbers out of range are clamped and noted
(:mod:`cognition.deliberate.bounds`): the notes go into the step's
``output["clamped"]``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Generic, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    model_validator,
)

from cognition.deliberate.bounds import Bound, clamp_fields
from cognition.deliberate.confidence import Conclusion, clamp_delta
from cognition.deliberate.lenient import (
    Delta,
    Level,
    Option,
    Significance,
    Text,
    TextList,
    as_intent,
    as_optional_name,
    as_parameters,
    as_percent,
    as_probability,
    as_yes_no,
    none_as,
)
from cognition.schemas import DecisionContext, Deliberation
from cognition.text import plain_text
from graph.models import DecisionType, ReasonerKind, ReasoningStep, StepName

_EVALUATE_REASONING_CHARS = 100  # seed 000 keeps the first 100 characters


class ParameterValue(BaseModel):
    """One template parameter's value, as DECIDE names it (a list of these, not a map: strict
    JSON schemas allow no free-form keys)."""

    name: str
    value: str


class StepReply(BaseModel):
    """Base of the step replies: extra fields from a chatty model are ignored.

    ``BOUNDS`` names the step's advisory numbers; out of range they are
    clamped, and :attr:`clamped` says which and from what.
    """

    model_config = ConfigDict(extra="ignore")
    BOUNDS: ClassVar[dict[str, Bound]] = {}
    _clamped: list[str] = PrivateAttr(default_factory=list)

    @model_validator(mode="wrap")
    @classmethod
    def _clamp_advisory_numbers(
        cls, data: Any, handler: ModelWrapValidatorHandler[StepReply]
    ) -> StepReply:
        notes: list[str] = []
        if isinstance(data, dict):
            data = cls._clamp(data, notes)
        reply = handler(data)
        reply._clamped = notes
        return reply

    @classmethod
    def _clamp(cls, data: dict[str, Any], notes: list[str]) -> dict[str, Any]:
        return clamp_fields(data, cls.BOUNDS, notes)

    @property
    def clamped(self) -> list[str]:
        """What was brought into range, e.g. ``"pattern_confidence -0.2 clamped to 0"``."""
        return list(self._clamped)

    def delta(self) -> float:
        """The confidence delta the step claims (before clamping to its range)."""
        return 0.0

    def describe(self) -> str:
        """The step's one-line reasoning, as seed 000 records it."""
        return ""


class ObserveReply(StepReply):
    """OBSERVE: what happened, its key facts and significance."""

    brief_summary: Text = Field(min_length=1)
    key_facts: TextList = Field(default_factory=list)
    significance: Significance = "medium"
    confidence_delta: Delta = 0.0

    def delta(self) -> float:
        return self.confidence_delta

    def describe(self) -> str:
        return self.brief_summary


class CategorizeReply(StepReply):
    """CATEGORIZE: the intent behind the change and whether it asks for action."""

    primary_intent: Annotated[
        Literal["new_content", "update", "fix", "cleanup", "unknown"], BeforeValidator(as_intent)
    ] = "unknown"
    domain: Annotated[str, BeforeValidator(none_as("unknown"))] = "unknown"
    requires_action: Annotated[Literal["yes", "no", "maybe"], BeforeValidator(as_yes_no)]
    action_urgency: Annotated[
        Literal["immediate", "soon", "whenever", "none"], BeforeValidator(none_as("none"))
    ] = "none"
    confidence_delta: Delta = 0.0

    def delta(self) -> float:
        return self.confidence_delta

    def describe(self) -> str:
        return f"Intent: {self.primary_intent}"


class MatchPatternReply(StepReply):
    """MATCH_PATTERN: the known pattern, the template that fits, and its track record."""

    BOUNDS: ClassVar[dict[str, Bound]] = {
        "past_success_rate": Bound(0, 100),
        "pattern_confidence": Bound(0, 1, percent_ok=True),
    }

    matched_pattern: Annotated[str, BeforeValidator(none_as("none"))] = "none"
    recommended_template: Annotated[str | None, BeforeValidator(as_optional_name)] = None
    past_success_rate: Annotated[float | None, BeforeValidator(as_percent)] = Field(
        default=None, ge=0, le=100
    )
    pattern_confidence: Annotated[float, BeforeValidator(as_probability)] = Field(
        default=0.5, ge=0, le=1
    )
    confidence_delta: Delta = 0.0

    def delta(self) -> float:
        return self.confidence_delta

    def describe(self) -> str:
        return f"Template: {self.recommended_template or 'none'}"


class OptionAssessment(BaseModel):
    """One of the four options as EVALUATE sees it."""

    model_config = ConfigDict(extra="ignore")

    option: Option
    likelihood_of_success: float | None = Field(default=None, ge=0, le=100)
    risk_level: Level = None
    resource_cost: Level = None


class EvaluateReply(StepReply):
    """EVALUATE: the options weighed and the one recommended."""

    @classmethod
    def _clamp(cls, data: dict[str, Any], notes: list[str]) -> dict[str, Any]:
        options = data.get("options")
        if not isinstance(options, list):
            return data
        bounds = {"likelihood_of_success": Bound(0, 100)}
        return data | {
            "options": [
                clamp_fields(o, bounds, notes, f"options[{i}].") if isinstance(o, dict) else o
                for i, o in enumerate(options)
            ]
        }

    options: list[OptionAssessment] = Field(default_factory=list, max_length=8)
    recommended_option: Option
    reasoning: Text = ""
    confidence_delta: Delta = 0.0

    def delta(self) -> float:
        return self.confidence_delta

    def describe(self) -> str:
        text = self.reasoning or f"recommends {self.recommended_option.value}"
        return plain_text(text, _EVALUATE_REASONING_CHARS)


class DecideReply(StepReply):
    """DECIDE: a rationale for the decision the thresholds chose, and what to find out.

    ``applied_strategies`` names the strategies (by id) the decision applied;
    the reasoner keeps only ids the system prompt showed.
    """

    rationale: Text = ""
    investigation_questions: TextList = Field(default_factory=list)
    parameters: Annotated[list[ParameterValue], BeforeValidator(as_parameters)] = Field(
        default_factory=list
    )
    """Values for the chosen template's parameters that the model read out of the file."""

    def parameter_values(self) -> dict[str, str]:
        """The parameters as a map from name to value."""
        return {p.name: p.value for p in self.parameters}

    applied_strategies: TextList = Field(default_factory=list)

    def describe(self) -> str:
        return self.rationale


R = TypeVar("R", bound=StepReply)


@dataclass(frozen=True, slots=True)
class StepOutcome(Generic[R]):
    """One step's reply and who produced it, at what cost."""

    name: StepName
    reply: R
    reasoner: ReasonerKind
    input_summary: str
    model: str | None = None
    latency_ms: float = 0.0
    tokens: int = 0
    error: str | None = None
    call_id: str | None = None


REPLY_MODELS: dict[StepName, type[StepReply]] = {
    StepName.OBSERVE: ObserveReply,
    StepName.CATEGORIZE: CategorizeReply,
    StepName.MATCH_PATTERN: MatchPatternReply,
    StepName.EVALUATE: EvaluateReply,
    StepName.DECIDE: DecideReply,
}
"""Each step's reply model: the schema an LLM's reply must fit."""


@dataclass(frozen=True, slots=True)
class Trace:
    """The five outcomes of one deliberation, in order."""

    observe: StepOutcome[ObserveReply]
    categorize: StepOutcome[CategorizeReply]
    match: StepOutcome[MatchPatternReply]
    evaluate: StepOutcome[EvaluateReply]
    decide: StepOutcome[DecideReply]

    def outcomes(self) -> list[StepOutcome[Any]]:
        """The five outcomes as a list, in order."""
        return [self.observe, self.categorize, self.match, self.evaluate, self.decide]


def input_summary(step: StepName, context: DecisionContext, *, detail: str = "") -> str:
    """What went into ``step``, in the seed's words; ``detail`` is the step's own part."""
    if step is StepName.OBSERVE:
        return f"{len(context.observations)} observations"
    if step is StepName.MATCH_PATTERN:
        return (
            f"Matching against {len(context.past_decisions)} past decisions "
            f"and {len(context.templates)} templates"
        )
    if step is StepName.EVALUATE:
        return "Evaluating 4 options"
    return detail


def build_deliberation(context: DecisionContext, trace: Trace, verdict: Conclusion) -> Deliberation:
    """The Deliberation for ``trace`` and ``verdict``, with one ReasoningStep per step.

    ``reasoner`` is LLM only when all five steps came from the LLM; ``model``
    is the model that produced any of them. A partial fallback therefore
    reads ``reasoner=rules`` with a model set, and each step says which.
    """
    outcomes = trace.outcomes()
    steps = [
        _reasoning_step(context, order, outcome, trace, verdict)
        for order, outcome in enumerate(outcomes)
    ]
    all_llm = all(o.reasoner is ReasonerKind.LLM for o in outcomes)
    observe = trace.observe.reply
    investigate = verdict.decision_type is DecisionType.INVESTIGATE
    return Deliberation(
        decision_type=verdict.decision_type,
        confidence=verdict.confidence,
        raw_confidence=verdict.raw_confidence,
        reasoning=" -> ".join(f"{s.name.value}: {s.reasoning}" for s in steps),
        reasoner=ReasonerKind.LLM if all_llm else ReasonerKind.RULES,
        model=next((o.model for o in outcomes if o.reasoner is ReasonerKind.LLM), None),
        template=verdict.template,
        summary=observe.brief_summary,
        key_facts=list(observe.key_facts),
        significance=observe.significance,
        is_critical=verdict.is_critical,
        steps=steps,
        wait_timeout_s=verdict.wait_timeout_s,
        investigation_questions=(
            list(trace.decide.reply.investigation_questions[:5]) if investigate else []
        ),
        escalation_reason=verdict.escalation_reason,
        escalation_priority=verdict.escalation_priority,
        parameters=trace.decide.reply.parameter_values(),
    )


def _reasoning_step(
    context: DecisionContext,
    order: int,
    outcome: StepOutcome[Any],
    trace: Trace,
    verdict: Conclusion,
) -> ReasoningStep:
    """One step as stored: its reply, its clamped delta, and for decide the verdict it led to."""
    output: dict[str, Any] = outcome.reply.model_dump(mode="json")
    reasoning = outcome.reply.describe()
    delta = clamp_delta(outcome.name, outcome.reply.delta())
    clamped = outcome.reply.clamped
    if delta != outcome.reply.delta():
        clamped.append(f"confidence_delta {outcome.reply.delta():g} clamped to {delta:g}")
    if clamped:
        output["clamped"] = clamped
    if outcome.name is StepName.DECIDE:
        # Decide is stored with where the confidence arithmetic landed, not
        # only with what the step replied: that is what the decision acted on.
        decided = f"{verdict.decision_type.value} (confidence {verdict.confidence:.2f})"
        rationale = trace.decide.reply.rationale
        reasoning = f"{decided}: {rationale}" if rationale else decided
        output |= {
            "decision_type": verdict.decision_type.value,
            "confidence": verdict.confidence,
            "raw_confidence": verdict.raw_confidence,
            "pattern_key": verdict.pattern_key,
            "template": verdict.template,
        }
    return ReasoningStep(
        agent_id=context.agent_id,
        name=outcome.name,
        order=order,
        reasoner=outcome.reasoner,
        model=outcome.model,
        input_summary=outcome.input_summary,
        output=output,
        confidence_delta=delta,
        reasoning=reasoning,
        latency_ms=outcome.latency_ms,
        tokens=outcome.tokens,
        error=outcome.error,
        call_id=outcome.call_id,
    )


def rules_outcome(
    name: StepName,
    reply: R,
    summary: str,
    *,
    started: float,
    error: str | None = None,
    tokens: int = 0,
) -> StepOutcome[R]:
    """A step the rules produced; ``started`` is its ``time.perf_counter()`` start."""
    return StepOutcome(
        name=name,
        reply=reply,
        reasoner=ReasonerKind.RULES,
        input_summary=summary,
        latency_ms=(time.perf_counter() - started) * 1000,
        tokens=tokens,
        error=error,
    )
