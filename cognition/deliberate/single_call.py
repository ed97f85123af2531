"""All five steps in one request: ``llm.deliberation: single_call``.

One user message carries the context once and asks for one JSON object
holding the five step objects (:class:`WholeReply`, sent as the reply
schema). The reply still becomes five ``ReasoningStep`` nodes: each gets the
request's ``call_id`` and a share of its latency and tokens proportional to
the length of its part of the reply. A reply that does not validate as a
whole is read step by step, so one bad part sends only that step to the
rules. DECIDE is written before the thresholds have chosen; its rationale is
the model's case for the option it recommends, and the recorded decision is
still the thresholds' (as in stepwise mode).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

import cognition.deliberate.prompts as prompts
from cognition.deliberate.replies import (
    CategorizeReply,
    DecideReply,
    EvaluateReply,
    MatchPatternReply,
    ObserveReply,
    StepReply,
)
from cognition.llm_reply import LLMReply, load_json, validate
from cognition.schemas import DecisionContext, RenderedContext
from cognition.text import fence
from graph.models import StepName
from graph.settings import ThresholdSettings


class WholeReply(BaseModel):
    """The one reply of a single-call deliberation: the five step objects."""

    model_config = ConfigDict(extra="ignore")

    observe: ObserveReply
    categorize: CategorizeReply
    match_pattern: MatchPatternReply
    evaluate: EvaluateReply
    decide: DecideReply


# The reply key and model of each step, in order.
PARTS: dict[StepName, tuple[str, type[StepReply]]] = {
    StepName.OBSERVE: ("observe", ObserveReply),
    StepName.CATEGORIZE: ("categorize", CategorizeReply),
    StepName.MATCH_PATTERN: ("match_pattern", MatchPatternReply),
    StepName.EVALUATE: ("evaluate", EvaluateReply),
    StepName.DECIDE: ("decide", DecideReply),
}


@dataclass(frozen=True, slots=True)
class Part:
    """One step's share of the single reply: its value (or why none) and its cost."""

    reply: StepReply | None
    error: str | None
    latency_ms: float
    tokens: int


def single_prompt(
    context: DecisionContext,
    rendered: RenderedContext,
    thresholds: ThresholdSettings,
    strategy_ids: Sequence[str] = (),
) -> str:
    """The user message asking for all five steps at once.

    With ``strategy_ids`` (the strategies the system prompt shows) "decide"
    also names those it applied.
    """
    decide_task, decide_shape = prompts.with_applied(
        """decide: rationale for the recommended option in one or two sentences; if it is \
"investigate", 3 to 5 questions whose answers would settle it, else an empty list.""",
        prompts.DECIDE_SHAPE,
        strategy_ids,
    )
    primary = context.primary
    lines = "\n".join(o.to_context_string() for o in context.observations)
    # What is the same for every decision comes first and what this decision
    # brings last, so a server that caches the prompt's prefix (llama.cpp, LM
    # Studio) evaluates the instructions once, not per decision: on two CPU
    # cores that is about ten seconds of every request.
    task = f"""TASK: reason in five steps and reply with ONE JSON object with the keys \
"observe", "categorize", "match_pattern", "evaluate" and "decide".
observe: what happened and how much it matters.
categorize: the intent behind the change, from the classifier's category and urgency \
(given after the context) and the active goals.
match_pattern: the known pattern among the past decisions in the context, and the action \
template that fits; recommended_template is one of the template names listed after the \
context, exactly, or "none".
evaluate: the options act (run the template now), wait (keep observing), investigate \
(gather information first), escalate (ask a person); recommend one.
{decide_task}
Each confidence_delta says how much that step raises or lowers the confidence that acting \
now is right; the thresholds then decide (act at {thresholds.act:.2f}, investigate at \
{thresholds.investigate:.2f}, wait at {thresholds.escalate:.2f}, escalate below).

The shape of each key's object:
"observe": {prompts.OBSERVE_SHAPE}
"categorize": {prompts.CATEGORIZE_SHAPE}
"match_pattern": {prompts.MATCH_SHAPE}
"evaluate": {prompts.EVALUATE_SHAPE}
"decide": {decide_shape}"""
    case = f"""THIS DECISION: the classifier said category "{primary.category.value}", \
urgency "{primary.urgency.value}"; active goals: {len(context.goals)}; past decisions in \
the context: {len(context.past_decisions)}.
The templates recommended_template may name:
{prompts.templates_block(context)}
Reply with ONE JSON object with the keys "observe", "categorize", "match_pattern", \
"evaluate" and "decide", as the TASK above says."""
    return "\n\n".join(
        [task, prompts.context_block(rendered), fence(lines, "observations in this batch"), case]
    )


def split_reply(reply: LLMReply[WholeReply]) -> dict[StepName, Part]:
    """Each step's part of ``reply``: validated on its own when the whole did not validate."""
    data: dict[str, Any] = {}
    error = reply.error or "no usable reply"
    if reply.value is not None:
        data = {key: getattr(reply.value, key) for key, _ in PARTS.values()}
    else:
        loaded, load_error = load_json(reply.raw)
        data = loaded if isinstance(loaded, dict) else {}
        error = load_error or error
    values: dict[StepName, StepReply | None] = {}
    errors: dict[StepName, str | None] = {}
    for name, (key, model) in PARTS.items():
        value = data.get(key)
        if isinstance(value, StepReply):
            values[name], errors[name] = value, None
            continue
        if value is None:
            values[name], errors[name] = None, f"{key} missing from the reply: {error}"
            continue
        parsed, problem = validate(value, model)
        values[name], errors[name] = parsed, (None if parsed is not None else problem)
    return _shares(reply, values, errors)


def _shares(
    reply: LLMReply[WholeReply],
    values: dict[StepName, StepReply | None],
    errors: dict[StepName, str | None],
) -> dict[StepName, Part]:
    # A step's share of the call: the length of its part of the reply, over the whole.
    sizes = {
        name: len(json.dumps(v.model_dump(mode="json"))) if v is not None else 0
        for name, v in values.items()
    }
    total = sum(sizes.values())
    parts: dict[StepName, Part] = {}
    tokens = reply.prompt_tokens + reply.completion_tokens
    for name in PARTS:
        share = sizes[name] / total if total else 1 / len(PARTS)
        parts[name] = Part(
            reply=values[name],
            error=errors[name],
            latency_ms=reply.latency_ms * share,
            tokens=round(tokens * share),
        )
    return parts
