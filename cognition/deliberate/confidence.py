"""From confidence to a decision type: seed 000's thresholds and its confidence adjuster.

Both reasoners end the same way. The four scoring steps each add a
``confidence_delta`` (clamped to the seed's range for that step) to a base of
0.5; the sum, clamped to [0, 1], is the *raw* confidence. The adjuster then
blends it with the success rate of the pattern the deliberation would follow
if it acted (``category:type:act:template``), and the thresholds turn the
result into ACT, INVESTIGATE, WAIT or ESCALATE. :func:`conclude` does all of
it, so the LLM and the rules reasoner cannot drift apart here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from graph.models import DecisionType, Pattern, StepName
from graph.models.learn import path_pattern_key, pattern_key
from graph.models.paths import path_pattern

if TYPE_CHECKING:
    # Types only: a hook loads this module for MIN_PATTERN_SAMPLES, not the LLM's schemas.
    from cognition.schemas import DecisionContext
    from graph.settings import ThresholdSettings

BASE_CONFIDENCE = 0.5
WAIT_TIMEOUT_S = 300.0
CRITICAL_WAIT_TIMEOUT_S = 60.0
# The adjuster ignores a pattern with fewer outcomes than this (seed 000 section 5.1).
MIN_PATTERN_SAMPLES = 3

# Seed 000 section 2.2: how far each step may move the confidence. DECIDE
# only reads the sum, so it moves nothing.
DELTA_RANGES: Mapping[StepName, tuple[float, float]] = MappingProxyType(
    {
        StepName.OBSERVE: (-0.10, 0.20),
        StepName.CATEGORIZE: (-0.10, 0.15),
        StepName.MATCH_PATTERN: (-0.10, 0.20),
        StepName.EVALUATE: (-0.10, 0.15),
        StepName.DECIDE: (0.0, 0.0),
        StepName.INVESTIGATE: (0.0, 0.0),
    }
)


def clamp(value: float, low: float = 0.0, high: float = 1.0) -> float:
    """``value`` within [low, high], rounded to 6 places.

    The rounding removes float noise from sums of deltas (0.5 + 0.1 + 0.1 +
    0.1 is 0.7999999999999999), so a threshold is met when the arithmetic
    on paper says it is.
    """
    return round(min(high, max(low, value)), 6)


def clamp_delta(step: StepName, delta: float) -> float:
    """``delta`` within the seed's range for ``step``."""
    low, high = DELTA_RANGES[step]
    return clamp(delta, low, high)


def decision_type(
    confidence: float, *, critical: bool, thresholds: ThresholdSettings
) -> DecisionType:
    """The decision type for ``confidence`` (seed 000 ``ConfidenceThresholds``).

    At or above the act threshold (``critical_act`` when critical): ACT; at or
    above ``investigate``: INVESTIGATE; at or above ``escalate``: WAIT;
    below: ESCALATE.
    """
    act = thresholds.critical_act if critical else thresholds.act
    if confidence >= act:
        return DecisionType.ACT
    if confidence >= thresholds.investigate:
        return DecisionType.INVESTIGATE
    if confidence >= thresholds.escalate:
        return DecisionType.WAIT
    return DecisionType.ESCALATE


def find_pattern(patterns: Iterable[Pattern], key: str) -> Pattern | None:
    """The pattern with ``key``, or None."""
    return next((pattern for pattern in patterns if pattern.key == key), None)


def act_history(context: DecisionContext, template: str | None) -> Pattern | None:
    """The record of acting with ``template`` on observations like the primary.

    The record on this kind of path (folder and extension) once it has an
    outcome, else the template's record across the category (seed 000's
    pattern). A template that keeps failing on one folder must not cost it
    the folders where it works, nor borrow their successes.
    """
    primary = context.primary
    key = pattern_key(primary.category, primary.type, DecisionType.ACT, template)
    if template is not None:
        specific = path_pattern_key(key, path_pattern(primary.path))
        here = find_pattern(context.patterns, specific) if specific else None
        if here is not None and here.total > 0:
            return here
    return find_pattern(context.patterns, key)


def adjust_confidence(base: float, pattern: Pattern | None) -> float:
    """Blend ``base`` with the pattern's success rate (seed 000 ``ConfidenceAdjuster``).

    With no pattern or fewer than three outcomes, ``base`` is returned as is
    (clamped). Otherwise history weighs ``min(0.5, total / 20)``: fully at
    ten outcomes, never more than the reasoning itself.
    """
    if pattern is None or pattern.total < MIN_PATTERN_SAMPLES:
        return clamp(base)
    # A corrupt count (successes above total) must not lift confidence past 1.
    success_rate = min(pattern.success_rate or 0.0, 1.0)
    weight = min(0.5, pattern.total / 20)
    return clamp(base * (1 - weight) + success_rate * weight)


@dataclass(frozen=True, slots=True)
class Conclusion:
    """Where the confidence arithmetic landed, and what it means for DECIDE."""

    raw_confidence: float
    confidence: float
    decision_type: DecisionType
    is_critical: bool
    significance: str
    template: str | None
    pattern_key: str
    pattern: Pattern | None
    wait_timeout_s: float | None
    escalation_reason: str | None
    escalation_priority: str | None


def known_template(context: DecisionContext, name: str | None) -> str | None:
    """The offered template called ``name`` (case-insensitively), or None.

    A model may name a template it was not offered, or change its case; only
    the templates recall offered can be acted on. A small model also copies
    what follows the name in the offer ("process_intake (claude_code)",
    "`process_intake`: ..."): an answer that starts with an offered name and
    then leaves the name (a space, a bracket, a colon) names that template;
    the longest such name wins, so "lint" never takes "lint_all".
    """
    if not name:
        return None
    wanted = name.strip().strip("`'\"").strip().casefold()
    exact = next((t.name for t in context.templates if t.name.casefold() == wanted), None)
    if exact is not None:
        return exact
    prefixed = [
        t.name
        for t in context.templates
        if wanted.startswith(folded := t.name.casefold())
        and not _continues_name(wanted[len(folded) :])
    ]
    return max(prefixed, key=len, default=None)


def _continues_name(rest: str) -> bool:
    # What follows the name is still part of a (longer) name: "lint_all" after "lint".
    return not rest or rest[0].isalnum() or rest[0] in "_-."


def conclude(
    context: DecisionContext,
    *,
    significance: str,
    recommended_template: str | None,
    deltas: Sequence[tuple[StepName, float]],
    thresholds: ThresholdSettings,
) -> Conclusion:
    """Sum the step deltas, adjust by history, and apply the thresholds.

    ``deltas`` are the scoring steps' raw deltas; each is clamped to its
    step's range here. The history consulted is the pattern of acting with
    the recommended template (:func:`act_history`), found in ``context.patterns``.
    """
    raw = clamp(BASE_CONFIDENCE + sum(clamp_delta(step, delta) for step, delta in deltas))
    template = known_template(context, recommended_template)
    primary = context.primary
    key = pattern_key(primary.category, primary.type, DecisionType.ACT, template)
    pattern = act_history(context, template)
    confidence = adjust_confidence(raw, pattern)
    critical = significance == "critical" or context.is_critical
    kind = decision_type(confidence, critical=critical, thresholds=thresholds)
    escalate = kind is DecisionType.ESCALATE
    return Conclusion(
        raw_confidence=raw,
        confidence=confidence,
        decision_type=kind,
        is_critical=critical,
        significance=significance,
        template=template,
        pattern_key=key,
        pattern=pattern,
        wait_timeout_s=(
            (CRITICAL_WAIT_TIMEOUT_S if critical else WAIT_TIMEOUT_S)
            if kind is DecisionType.WAIT
            else None
        ),
        escalation_reason=(
            f"Low confidence ({confidence:.2f}) on {significance} observation" if escalate else None
        ),
        escalation_priority=("high" if critical else "medium") if escalate else None,
    )
