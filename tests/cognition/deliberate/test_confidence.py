"""Seed 000's confidence thresholds, pattern keys and confidence adjuster."""

from __future__ import annotations

import pytest

from cognition.deliberate.confidence import (
    act_history,
    adjust_confidence,
    clamp_delta,
    conclude,
    decision_type,
    known_template,
)
from cognition.frames.spec import SEED_FRAMES
from cognition.schemas import DecisionContext, TemplateOption
from graph.models import (
    Category,
    DecisionType,
    Observation,
    ObservationType,
    Pattern,
    StepName,
    Urgency,
)
from graph.models.learn import pattern_key
from graph.settings import ThresholdSettings

AGENT = "test-thresholds"
DEFAULTS = ThresholdSettings()
ACT, INVESTIGATE, WAIT, ESCALATE = (
    DecisionType.ACT,
    DecisionType.INVESTIGATE,
    DecisionType.WAIT,
    DecisionType.ESCALATE,
)


@pytest.mark.parametrize(
    ("confidence", "critical", "expected"),
    [
        (1.0, False, ACT),
        (0.70, False, ACT),
        (0.6999, False, INVESTIGATE),
        (0.50, False, INVESTIGATE),
        (0.4999, False, WAIT),
        (0.30, False, WAIT),
        (0.2999, False, ESCALATE),
        (0.0, False, ESCALATE),
        (1.0, True, ACT),
        (0.85, True, ACT),
        (0.8499, True, INVESTIGATE),
        (0.70, True, INVESTIGATE),
        (0.50, True, INVESTIGATE),
        (0.30, True, WAIT),
        (0.10, True, ESCALATE),
    ],
)
def test_decision_type_follows_the_seed_table(
    confidence: float, critical: bool, expected: DecisionType
) -> None:
    assert decision_type(confidence, critical=critical, thresholds=DEFAULTS) is expected


def test_decision_type_uses_the_settings() -> None:
    strict = ThresholdSettings(act=0.9, critical_act=0.95, investigate=0.6, escalate=0.2)

    assert decision_type(0.85, critical=False, thresholds=strict) is INVESTIGATE
    assert decision_type(0.92, critical=True, thresholds=strict) is INVESTIGATE
    assert decision_type(0.55, critical=False, thresholds=strict) is WAIT
    assert decision_type(0.25, critical=False, thresholds=strict) is WAIT
    assert decision_type(0.19, critical=False, thresholds=strict) is ESCALATE


def test_pattern_key_is_category_type_decision_template() -> None:
    assert pattern_key("intake", "file_created", "act", "process_intake") == (
        "intake:file_created:act:process_intake"
    )
    assert pattern_key(Category.INTAKE, ObservationType.FILE_CREATED, ACT, None) == (
        "intake:file_created:act:custom"
    )
    assert pattern_key(Category.SYSTEM, ObservationType.TASK_FAILED, WAIT, "") == (
        "system:task_failed:wait:custom"
    )


def stats(total: int, successes: int) -> Pattern:
    return Pattern(agent_id=AGENT, key="k", total=total, successes=successes)


@pytest.mark.parametrize("pattern", [None, stats(0, 0), stats(2, 0), stats(2, 2)])
def test_fewer_than_three_outcomes_change_nothing(pattern: Pattern | None) -> None:
    assert adjust_confidence(0.8, pattern) == 0.8
    assert adjust_confidence(0.31, pattern) == 0.31


@pytest.mark.parametrize(
    ("base", "total", "successes", "expected"),
    [
        # weight = min(0.5, total / 20); adjusted = base * (1 - w) + rate * w
        (0.8, 3, 3, 0.8 * 0.85 + 1.0 * 0.15),
        (0.8, 3, 0, 0.8 * 0.85),
        (0.8, 10, 2, 0.8 * 0.5 + 0.2 * 0.5),
        (0.6, 5, 4, 0.6 * 0.75 + 0.8 * 0.25),
        (0.9, 40, 0, 0.45),  # the weight stops at one half
        (0.5, 100, 100, 0.75),
    ],
)
def test_history_is_blended_in(base: float, total: int, successes: int, expected: float) -> None:
    assert adjust_confidence(base, stats(total, successes)) == pytest.approx(expected)


def test_adjusted_confidence_stays_in_range() -> None:
    assert adjust_confidence(1.4, None) == 1.0
    assert adjust_confidence(-0.2, stats(10, 0)) == 0.0
    # A corrupt record (more successes than runs) cannot push past 1.
    assert adjust_confidence(1.0, stats(10, 50)) == 1.0


@pytest.mark.parametrize(
    ("step", "raw", "clamped"),
    [
        (StepName.OBSERVE, 0.5, 0.2),
        (StepName.OBSERVE, -0.5, -0.1),
        (StepName.CATEGORIZE, 0.2, 0.15),
        (StepName.MATCH_PATTERN, 0.2, 0.2),
        (StepName.EVALUATE, 0.16, 0.15),
        (StepName.EVALUATE, -0.05, -0.05),
        (StepName.DECIDE, 0.3, 0.0),
    ],
)
def test_deltas_are_clamped_to_each_steps_range(step: StepName, raw: float, clamped: float) -> None:
    assert clamp_delta(step, raw) == clamped


def intake_context(*patterns: Pattern, critical: bool = False) -> DecisionContext:
    observation = Observation(
        agent_id=AGENT,
        type=ObservationType.TASK_FAILED if critical else ObservationType.FILE_CREATED,
        urgency=Urgency.CRITICAL if critical else Urgency.URGENT,
        category=Category.INTAKE,
        path="_intake/note.md",
    )
    return DecisionContext(
        observations=[observation],
        frame=SEED_FRAMES[0],
        templates=[TemplateOption(name="process_intake", description="d", target="claude_code")],
        patterns=list(patterns),
    )


def test_conclude_sums_clamped_deltas_without_float_noise() -> None:
    # In floats 0.5 + sum(-0.1, -0.1, -0.1, 0.1) is 0.29999999999999993: without
    # rounding, a sum that is 0.30 on paper would escalate instead of wait.
    steps = (StepName.OBSERVE, StepName.CATEGORIZE, StepName.MATCH_PATTERN, StepName.EVALUATE)
    noisy = (-0.1, -0.1, -0.1, 0.1)
    assert 0.5 + sum(noisy) < 0.3
    verdict = conclude(
        intake_context(),
        significance="medium",
        recommended_template="process_intake",
        deltas=list(zip(steps, noisy, strict=True)),
        thresholds=DEFAULTS,
    )
    assert verdict.raw_confidence == verdict.confidence == 0.3
    assert verdict.decision_type is WAIT

    wild = [(StepName.OBSERVE, 5.0), (StepName.EVALUATE, -3.0)]  # clamped to 0.2 and -0.1
    verdict = conclude(
        intake_context(),
        significance="high",
        recommended_template=None,
        deltas=wild,
        thresholds=DEFAULTS,
    )
    assert verdict.raw_confidence == pytest.approx(0.5 + 0.2 - 0.1)


def test_conclude_uses_the_act_pattern_of_the_offered_template() -> None:
    failing = Pattern(
        agent_id=AGENT, key="intake:file_created:act:process_intake", total=10, successes=0
    )
    verdict = conclude(
        intake_context(failing),
        significance="high",
        recommended_template="Process_Intake",
        deltas=[(StepName.OBSERVE, 0.2), (StepName.EVALUATE, 0.15)],
        thresholds=DEFAULTS,
    )
    assert verdict.template == "process_intake"
    assert verdict.pattern_key == failing.key and verdict.pattern == failing
    assert verdict.raw_confidence == 0.85
    assert verdict.confidence == pytest.approx(0.425)
    assert verdict.decision_type is WAIT
    assert verdict.wait_timeout_s == 300.0


def test_conclude_drops_templates_that_were_not_offered() -> None:
    verdict = conclude(
        intake_context(),
        significance="low",
        recommended_template="delete_everything",
        deltas=[],
        thresholds=DEFAULTS,
    )
    assert verdict.template is None
    assert verdict.pattern_key == "intake:file_created:act:custom"


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("process_intake (claude_code)", "process_intake"),
        ("`process_intake`", "process_intake"),
        ("process_intake: Process a new file", "process_intake"),
        ("process_intake_v2", None),
        ("process", None),
        ("lint (command)", "lint"),
        ("lint_all", "lint_all"),
        ("lint_all (command)", "lint_all"),
        ("lint-strict", None),
        ("STRASSE (command)", "Straße"),
    ],
)
def test_known_template_reads_a_name_the_model_copied_with_what_follows_it(
    answer: str, expected: str | None
) -> None:
    context = intake_context().model_copy(
        update={
            "templates": [
                TemplateOption(name=n, description="d", target="claude_code")
                for n in ("process_intake", "lint", "lint_all", "Straße")
            ]
        }
    )
    assert known_template(context, answer) == expected


def test_conclude_critical_escalation_and_wait() -> None:
    low = [(StepName.MATCH_PATTERN, -0.1), (StepName.EVALUATE, -0.1), (StepName.OBSERVE, -0.05)]
    verdict = conclude(
        intake_context(critical=True),
        significance="high",
        recommended_template=None,
        deltas=low,
        thresholds=DEFAULTS,
    )
    assert verdict.is_critical  # the batch is critical whatever the step said
    assert verdict.decision_type is ESCALATE
    assert verdict.escalation_reason == "Low confidence (0.25) on high observation"
    assert verdict.escalation_priority == "high"
    assert verdict.wait_timeout_s is None

    verdict = conclude(
        intake_context(),
        significance="critical",
        recommended_template=None,
        deltas=[(StepName.EVALUATE, -0.1)],
        thresholds=DEFAULTS,
    )
    assert verdict.is_critical and verdict.decision_type is WAIT
    assert verdict.wait_timeout_s == 60.0
    assert verdict.escalation_reason is None and verdict.escalation_priority is None


def test_the_record_on_this_kind_of_path_comes_before_the_templates_record() -> None:
    key = "intake:file_created:act:process_intake"
    # The template fails on reports and works on notes: across the category it looks broken.
    everywhere = Pattern(agent_id=AGENT, key=key, total=12, successes=4)
    here = Pattern(agent_id=AGENT, key=f"{key} on _intake/*.md", total=8, successes=8)
    elsewhere = Pattern(agent_id=AGENT, key=f"{key} on _intake/reports/*.md", total=8, successes=0)
    thresholds = DEFAULTS
    deltas = [(StepName.OBSERVE, 0.2), (StepName.EVALUATE, 0.15)]

    with_here = conclude(
        intake_context(everywhere, here, elsewhere),
        significance="high",
        recommended_template="process_intake",
        deltas=deltas,
        thresholds=thresholds,
    )
    assert act_history(intake_context(everywhere, here, elsewhere), "process_intake") == here
    assert with_here.pattern == here and with_here.pattern_key == key  # recorded as the seed's
    assert with_here.confidence == pytest.approx(0.85 * 0.6 + 1.0 * 0.4)
    assert with_here.decision_type is DecisionType.ACT

    # No outcome here yet: the template's record across the category decides.
    unseen = Pattern(agent_id=AGENT, key=f"{key} on _intake/*.md", total=0, successes=0)
    without = conclude(
        intake_context(everywhere, unseen, elsewhere),
        significance="high",
        recommended_template="process_intake",
        deltas=deltas,
        thresholds=thresholds,
    )
    assert without.pattern == everywhere
    assert without.decision_type is not DecisionType.ACT
