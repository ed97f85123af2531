"""The rule table: each of the five steps from templates, history and the classifier, no I/O.

The rules reasoner deliberates by it when no LLM answers, and it stands in
for any single step the LLM gets wrong (:mod:`cognition.deliberate.sequence`).
The same context always gives the same deliberation (ids, times and
latencies aside). "Primary" is the batch's first, most urgent
observation; "history" is the record of acting with the recommended
template: the ``Pattern`` for ``category:type:act:template`` when it has
outcomes, else the past decisions recall showed with that template and a
known outcome.

==========  =================================================================
OBSERVE     significance from the primary's urgency: critical -> critical,
            urgent -> high, routine -> medium, low and noise -> low (critical
            whenever any observation of the batch is).
            delta: urgent +0.10, routine +0.05, critical, low, noise 0.00
CATEGORIZE  intent: created -> new_content; modified, moved -> update;
            deleted -> cleanup; process or task failed -> fix; else unknown.
            domain: intake, knowledge, thinker -> content; index, template,
            config, code, test -> technical; self_reference, learning -> meta;
            else system.
            requires_action: yes when a template is offered or for a failure;
            no for a deletion or a low or noise observation; else maybe.
            action_urgency from significance (critical -> immediate,
            high -> soon, medium -> whenever, low -> none); none for no action.
            delta: template +0.10, failure without template -0.05,
            maybe 0.00, no -0.05
MATCH       template: the first offered (recall offers only those whose
            trigger matches). History: proven (>= 3 outcomes, >= 70 %
            success), failing (>= 3, < 50 %), mixed (>= 3, between), new (< 3).
            delta: proven +0.20, new +0.10, mixed +0.05, failing -0.10,
            no template -0.10
EVALUATE    proven -> act +0.15; new -> act +0.05; mixed -> act 0.00;
            failing -> investigate -0.10; no template and critical or a
            failure -> escalate -0.10; no template otherwise -> wait 0.00
DECIDE      0.5 + the deltas, blended with history by the adjuster, through
            the thresholds; an investigation gets 3-5 questions drawn from
            the situation, the frame's questions and three general ones.
==========  =================================================================

With the default thresholds: a new file in the intake folder (urgent) with
``process_intake`` offered and no history scores 0.5 + 0.10 + 0.10 + 0.10 +
0.05 = 0.85, ACT. A routine modification without a template scores 0.45,
WAIT. The same intake file whose pattern failed 8 times in 10 scores 0.50,
which the adjuster pulls to 0.35: WAIT. A critical failure without a
template scores 0.25: ESCALATE, high priority; with a template but no
history 0.75, under the critical act threshold 0.85: INVESTIGATE.
"""

from __future__ import annotations

from cognition.deliberate.confidence import (
    MIN_PATTERN_SAMPLES,
    Conclusion,
    act_history,
    known_template,
)
from cognition.deliberate.replies import (
    CategorizeReply,
    DecideReply,
    EvaluateReply,
    MatchPatternReply,
    ObserveReply,
    OptionAssessment,
)
from cognition.schemas import DecisionContext
from graph.models import Category, DecisionType, ObservationType, Urgency
from graph.models.learn import pattern_key

_SIGNIFICANCE = {Urgency.CRITICAL: "critical", Urgency.URGENT: "high", Urgency.ROUTINE: "medium"}
_OBSERVE_DELTA = {Urgency.URGENT: 0.10, Urgency.ROUTINE: 0.05}
_INTENT = {
    ObservationType.FILE_CREATED: "new_content",
    ObservationType.FILE_MODIFIED: "update",
    ObservationType.FILE_MOVED: "update",
    ObservationType.FILE_DELETED: "cleanup",
    ObservationType.PROCESS_FAILED: "fix",
    ObservationType.TASK_FAILED: "fix",
}
_DOMAIN = {
    **dict.fromkeys((Category.INTAKE, Category.KNOWLEDGE, Category.THINKER), "content"),
    **dict.fromkeys(
        (Category.INDEX, Category.TEMPLATE, Category.CONFIG, Category.CODE, Category.TEST),
        "technical",
    ),
    **dict.fromkeys((Category.SELF_REFERENCE, Category.LEARNING), "meta"),
}
_ACTION_URGENCY = {"critical": "immediate", "high": "soon", "medium": "whenever"}
_FAILURES = frozenset({ObservationType.PROCESS_FAILED, ObservationType.TASK_FAILED})
# Standing of a template's history -> (MATCH delta, EVALUATE option, EVALUATE delta).
_STANDING = {
    "proven": (0.20, DecisionType.ACT, 0.15),
    "new": (0.10, DecisionType.ACT, 0.05),
    "mixed": (0.05, DecisionType.ACT, 0.0),
    "failing": (-0.10, DecisionType.INVESTIGATE, -0.10),
}
_GENERAL_QUESTIONS = (
    "What would make acting here wrong, and could it be undone?",
    "What else changed around the same time?",
    "Which standing goal, if any, does this bear on?",
)


def history_of(context: DecisionContext, template: str) -> tuple[int, int]:
    """(successes, outcomes) of acting with ``template`` on observations like the primary."""
    pattern = act_history(context, template)
    if pattern is not None and pattern.total > 0:
        return min(pattern.successes, pattern.total), pattern.total
    known = [
        d.outcome_success
        for d in context.past_decisions
        if d.template == template and d.outcome_success is not None
    ]
    return sum(known), len(known)


def standing(successes: int, total: int) -> str:
    """proven, failing, mixed or new, as the rule table defines them."""
    if total < MIN_PATTERN_SAMPLES:
        return "new"
    rate = successes / total
    return "proven" if rate >= 0.7 else "failing" if rate < 0.5 else "mixed"


def observe_by_rules(context: DecisionContext) -> ObserveReply:
    """OBSERVE from the classifier's urgency and category."""
    primary, count = context.primary, len(context.observations)
    significance = "critical" if context.is_critical else _SIGNIFICANCE.get(primary.urgency, "low")
    where = primary.path or "(no path)"
    summary = f"{primary.type.value} {where} ({primary.category.value}, {primary.urgency.value})"
    if count > 1:
        summary += f" and {count - 1} more observation(s)"
    facts = [f"{count} observation(s); the most urgent is {primary.type.value}"]
    facts.append(f"category {primary.category.value}, urgency {primary.urgency.value}")
    if context.file is not None:
        view = context.file
        size = f"{view.size} bytes" if view.size is not None else "size unknown"
        kind = ", binary" if view.binary else ""
        facts.append(f"{view.path}: {size}{kind}" if view.exists else f"{view.path} is gone")
    names = [t.name for t in context.templates]
    facts.append(f"templates offered: {', '.join(names)}" if names else "no template matches")
    return ObserveReply(
        brief_summary=summary,
        key_facts=facts,
        significance=significance,
        confidence_delta=_OBSERVE_DELTA.get(primary.urgency, 0.0),
    )


def categorize_by_rules(context: DecisionContext, observe: ObserveReply) -> CategorizeReply:
    """CATEGORIZE from the observation type, the category and the offered templates."""
    primary = context.primary
    failure = primary.type in _FAILURES
    if context.templates:
        requires, delta = "yes", 0.10
    elif failure:
        requires, delta = "yes", -0.05
    elif primary.type is ObservationType.FILE_DELETED or primary.urgency in (
        Urgency.LOW,
        Urgency.NOISE,
    ):
        requires, delta = "no", -0.05
    else:
        requires, delta = "maybe", 0.0
    urgency = _ACTION_URGENCY.get(observe.significance, "none") if requires != "no" else "none"
    return CategorizeReply(
        primary_intent=_INTENT.get(primary.type, "unknown"),
        domain=_DOMAIN.get(primary.category, "system"),
        requires_action=requires,
        action_urgency=urgency,
        confidence_delta=delta,
    )


def match_by_rules(context: DecisionContext) -> MatchPatternReply:
    """MATCH_PATTERN: the first offered template and its history."""
    if not context.templates:
        return MatchPatternReply(pattern_confidence=0.2, confidence_delta=-0.10)
    template = context.templates[0].name
    successes, total = history_of(context, template)
    rank = standing(successes, total)
    primary = context.primary
    key = pattern_key(primary.category, primary.type, DecisionType.ACT, template)
    return MatchPatternReply(
        matched_pattern=f"{key} ({successes}/{total} succeeded)" if total else "none",
        recommended_template=template,
        past_success_rate=round(100 * successes / total, 1) if total else None,
        pattern_confidence={"proven": 0.9, "mixed": 0.6, "new": 0.5, "failing": 0.3}[rank],
        confidence_delta=_STANDING[rank][0],
    )


def evaluate_by_rules(
    context: DecisionContext, observe: ObserveReply, match: MatchPatternReply
) -> EvaluateReply:
    """EVALUATE: act on a template with a good or no record, else wait, investigate or escalate."""
    template = known_template(context, match.recommended_template)
    critical = observe.significance == "critical" or context.is_critical
    rate: float | None = None
    if template is None:
        rank = "none"
        serious = critical or context.primary.type in _FAILURES
        option, delta = (DecisionType.ESCALATE, -0.10) if serious else (DecisionType.WAIT, 0.0)
        reasoning = (
            "no template handles this and it is serious: a person should look"
            if serious
            else "no template handles this: keep observing"
        )
    else:
        successes, total = history_of(context, template)
        rank = standing(successes, total)
        rate = successes / total if total else None
        _, option, delta = _STANDING[rank]
        reasoning = f"{template} is {rank} ({successes}/{total} succeeded): {option.value}"
    act_risk = {"proven": "low", "new": "medium", "mixed": "medium"}.get(rank, "high")
    act_odds = 100 * rate if rate is not None else (70.0 if template else 30.0)
    wait_odds, wait_risk = (30.0, "high") if critical else (60.0, "low")
    rows = [
        (DecisionType.ACT, round(act_odds, 1), act_risk, "medium"),
        (DecisionType.WAIT, wait_odds, wait_risk, "low"),
        (DecisionType.INVESTIGATE, 60.0, "low", "low"),
        (DecisionType.ESCALATE, 80.0, "low", "high"),  # a person's time is the dearest
    ]
    options = [
        OptionAssessment(option=o, likelihood_of_success=p, risk_level=r, resource_cost=c)
        for o, p, r, c in rows
    ]
    return EvaluateReply(
        options=options, recommended_option=option, reasoning=reasoning, confidence_delta=delta
    )


def investigation_questions(context: DecisionContext, template: str | None) -> list[str]:
    """Three to five questions whose answers would settle the decision."""
    primary = context.primary
    where = primary.path or primary.type.value
    questions: list[str] = []
    if primary.type in _FAILURES:
        questions.append(f"What caused {where} to fail, and is it still failing?")
    elif primary.type is ObservationType.FILE_DELETED:
        questions.append(f"Was deleting {where} intended, and does anything still refer to it?")
    elif primary.is_file_change:
        questions.append(f"Is {where} complete, or is it still being written?")
    if template is None:
        questions.append(
            f"Which action, if any, should handle {primary.type.value} in {primary.category.value}?"
        )
    else:
        successes, total = history_of(context, template)
        if standing(successes, total) == "failing":
            questions.append(f"Why did {total - successes} of {total} runs of {template} fail?")
        else:
            questions.append(f"Is {template} the right action for {where}?")
    if not context.past_decisions:
        questions.append(f"Has anything like this in {primary.category.value} been handled before?")
    questions += [*context.frame.questions_to_ask, *_GENERAL_QUESTIONS]
    return merge_questions(questions)


def merge_questions(*groups: list[str]) -> list[str]:
    """The first five distinct questions (case-insensitively) across ``groups``, in order."""
    seen: set[str] = set()
    merged: list[str] = []
    for question in (q for group in groups for q in group):
        folded = question.strip().casefold()
        if folded and folded not in seen:
            seen.add(folded)
            merged.append(question.strip())
    return merged[:5]


def decide_by_rules(context: DecisionContext, verdict: Conclusion) -> DecideReply:
    """DECIDE: say why the thresholds chose what they chose; questions for an investigation."""
    kind = verdict.decision_type
    rationale = {
        DecisionType.ACT: "confident enough to act"
        + (f" with {verdict.template}" if verdict.template else ""),
        DecisionType.INVESTIGATE: "not confident enough to act; find out more first",
        DecisionType.WAIT: "nothing calls for action yet; keep observing",
        DecisionType.ESCALATE: "too uncertain to handle alone; a person should look",
    }[kind]
    pattern = verdict.pattern
    if pattern is not None and pattern.total >= MIN_PATTERN_SAMPLES:
        rationale += f"; history {pattern.successes}/{pattern.total} succeeded"
    questions = (
        investigation_questions(context, verdict.template)
        if kind is DecisionType.INVESTIGATE
        else []
    )
    return DecideReply(rationale=rationale, investigation_questions=questions)
