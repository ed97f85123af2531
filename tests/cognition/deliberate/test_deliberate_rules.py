"""The rules reasoner: the rule table's scenarios, its records, and determinism."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from cognition.deliberate import RulesReasoner
from cognition.frames.spec import SEED_FRAMES
from cognition.schemas import (
    DecisionContext,
    Deliberation,
    FileView,
    PastDecision,
    RenderedContext,
    TemplateOption,
)
from graph.models import (
    Category,
    DecisionType,
    Observation,
    ObservationType,
    Pattern,
    ReasonerKind,
    Urgency,
)
from graph.settings import ThresholdSettings
from tests.support.llm_reasoner import STEP_NAMES

AGENT = "test-deliberate"
DECISION_FRAME = next(frame for frame in SEED_FRAMES if frame.name == "decision")
PROCESS_INTAKE = TemplateOption(
    name="process_intake",
    description="Process a new file in the intake directory",
    target="claude_code",
)
HANDLE_FAILURE = TemplateOption(
    name="handle_failure", description="Diagnose and fix a failed task", target="claude_code"
)
INTAKE_KEY = "intake:file_created:act:process_intake"
RENDERED = RenderedContext(
    text="## Observations\nfile_created _intake/note.md\n## File content\n```\n# A note\n```",
    sections=[],
    token_estimate=20,
)


def observe(
    kind: ObservationType, urgency: Urgency, category: Category, path: str | None = None
) -> Observation:
    """An observation as the classifier leaves it."""
    return Observation(agent_id=AGENT, type=kind, urgency=urgency, category=category, path=path)


def context_for(
    *observations: Observation,
    templates: tuple[TemplateOption, ...] = (),
    patterns: tuple[Pattern, ...] = (),
    past: tuple[PastDecision, ...] = (),
    file: FileView | None = None,
) -> DecisionContext:
    """A decision context as recall would build it."""
    return DecisionContext(
        observations=list(observations),
        frame=DECISION_FRAME,
        file=file,
        templates=list(templates),
        patterns=list(patterns),
        past_decisions=list(past),
    )


def new_intake_file(**extra: Any) -> DecisionContext:
    """A new markdown file in the intake folder, with process_intake offered."""
    note = observe(ObservationType.FILE_CREATED, Urgency.URGENT, Category.INTAKE, "_intake/note.md")
    view = FileView(path="_intake/note.md", exists=True, size=120, content_head="# A note")
    return context_for(note, templates=(PROCESS_INTAKE,), file=view, **extra)


def critical_failure(*templates: TemplateOption, **extra: Any) -> DecisionContext:
    """A failed task, with whatever templates are given."""
    failed = observe(ObservationType.TASK_FAILED, Urgency.CRITICAL, Category.TASK_LIFECYCLE)
    return context_for(failed, templates=templates, **extra)


def pattern(key: str, total: int, successes: int) -> Pattern:
    """Pattern statistics as the learner keeps them."""
    return Pattern(agent_id=AGENT, key=key, total=total, successes=successes)


def stable(deliberation: Deliberation) -> dict[str, Any]:
    """The deliberation without what differs between two runs: ids, times, latencies."""
    data = deliberation.model_dump(mode="json")
    for step in data["steps"]:
        del step["id"], step["at"], step["latency_ms"]
    return data


@pytest.fixture
def rules() -> RulesReasoner:
    return RulesReasoner(ThresholdSettings())


def assert_recorded_by_rules(deliberation: Deliberation) -> None:
    assert deliberation.reasoner is ReasonerKind.RULES and deliberation.model is None
    assert [s.name for s in deliberation.steps] == STEP_NAMES
    assert [s.order for s in deliberation.steps] == [0, 1, 2, 3, 4]
    for step in deliberation.steps:
        assert step.agent_id == AGENT
        assert step.reasoner is ReasonerKind.RULES and step.model is None
        assert step.error is None and step.tokens == 0 and step.latency_ms >= 0
        assert step.output and step.reasoning and step.input_summary
    assert 0.0 <= deliberation.confidence <= 1.0


# -- the scenarios the rule table is built for ----------------------------------


async def test_a_new_intake_file_with_its_template_acts(rules: RulesReasoner) -> None:
    deliberation = await rules.deliberate(new_intake_file(), RENDERED)

    assert deliberation.decision_type is DecisionType.ACT
    assert deliberation.confidence >= 0.70
    assert deliberation.raw_confidence == deliberation.confidence == 0.85
    assert deliberation.template == "process_intake"
    assert deliberation.significance == "high" and not deliberation.is_critical
    assert deliberation.summary == "file_created _intake/note.md (intake, urgent)"
    assert 3 <= len(deliberation.key_facts) <= 5
    assert deliberation.investigation_questions == []
    assert deliberation.wait_timeout_s is None and deliberation.escalation_reason is None
    assert deliberation.reasoning == (
        "OBSERVE: file_created _intake/note.md (intake, urgent)"
        " -> CATEGORIZE: Intent: new_content"
        " -> MATCH_PATTERN: Template: process_intake"
        " -> EVALUATE: process_intake is new (0/0 succeeded): act"
        " -> DECIDE: act (confidence 0.85): confident enough to act with process_intake"
    )
    assert_recorded_by_rules(deliberation)
    deltas = [s.confidence_delta for s in deliberation.steps]
    assert deltas == [0.10, 0.10, 0.10, 0.05, 0.0]
    decide = deliberation.steps[-1]
    assert decide.input_summary == "Final decision with 0.85 confidence"
    assert decide.output["decision_type"] == "act"
    assert decide.output["pattern_key"] == INTAKE_KEY


async def test_a_routine_modification_without_template_does_not_act(
    rules: RulesReasoner,
) -> None:
    edit = observe(
        ObservationType.FILE_MODIFIED, Urgency.ROUTINE, Category.KNOWLEDGE, "docs/guide.md"
    )

    deliberation = await rules.deliberate(context_for(edit), RENDERED)

    assert deliberation.decision_type is DecisionType.WAIT
    assert deliberation.confidence == 0.45
    assert deliberation.template is None
    assert deliberation.wait_timeout_s == 300.0
    assert deliberation.steps[1].output["requires_action"] == "maybe"
    assert_recorded_by_rules(deliberation)


@pytest.mark.parametrize(("total", "successes"), [(3, 0), (5, 1), (10, 2), (30, 10)])
async def test_repeated_failures_of_a_pattern_pull_act_below_the_threshold(
    rules: RulesReasoner, total: int, successes: int
) -> None:
    history = pattern(INTAKE_KEY, total, successes)

    deliberation = await rules.deliberate(new_intake_file(patterns=(history,)), RENDERED)

    assert deliberation.decision_type is not DecisionType.ACT
    assert deliberation.confidence < 0.70
    assert deliberation.confidence < deliberation.raw_confidence  # the adjuster pulled too
    match = deliberation.steps[2].output
    assert match["past_success_rate"] == round(100 * successes / total, 1)
    assert deliberation.steps[2].confidence_delta == -0.10


async def test_failures_seen_only_in_past_decisions_also_hold_back(
    rules: RulesReasoner,
) -> None:
    at = datetime(2025, 1, 1, tzinfo=UTC)
    past = tuple(
        PastDecision(
            id=f"d{i}",
            at=at,
            similarity="same_kind",
            type=DecisionType.ACT,
            confidence=0.8,
            template="process_intake",
            executed=True,
            outcome_success=False,
        )
        for i in range(3)
    )

    deliberation = await rules.deliberate(new_intake_file(past=past), RENDERED)

    assert deliberation.decision_type is DecisionType.INVESTIGATE
    assert 3 <= len(deliberation.investigation_questions) <= 5
    assert "Why did 3 of 3 runs of process_intake fail?" in deliberation.investigation_questions


async def test_a_proven_pattern_acts_even_on_a_critical_failure(rules: RulesReasoner) -> None:
    proven = pattern("task_lifecycle:task_failed:act:handle_failure", 10, 9)

    deliberation = await rules.deliberate(
        critical_failure(HANDLE_FAILURE, patterns=(proven,)), RENDERED
    )

    assert deliberation.is_critical
    assert deliberation.decision_type is DecisionType.ACT
    assert deliberation.confidence >= 0.85
    assert deliberation.template == "handle_failure"


async def test_a_critical_failure_without_template_escalates(rules: RulesReasoner) -> None:
    deliberation = await rules.deliberate(critical_failure(), RENDERED)

    assert deliberation.decision_type is DecisionType.ESCALATE
    assert deliberation.confidence == 0.25
    assert deliberation.is_critical and deliberation.significance == "critical"
    assert deliberation.escalation_reason == "Low confidence (0.25) on critical observation"
    assert deliberation.escalation_priority == "high"
    assert_recorded_by_rules(deliberation)


async def test_a_critical_failure_with_an_untried_template_investigates(
    rules: RulesReasoner,
) -> None:
    deliberation = await rules.deliberate(critical_failure(HANDLE_FAILURE), RENDERED)

    assert deliberation.decision_type is DecisionType.INVESTIGATE
    assert deliberation.confidence == 0.75  # would act if it were not critical
    questions = deliberation.investigation_questions
    assert 3 <= len(questions) <= 5
    assert len({q.casefold() for q in questions}) == len(questions)
    assert questions[0] == "What caused task_failed to fail, and is it still failing?"
    assert deliberation.steps[-1].output["investigation_questions"] == questions


@pytest.mark.parametrize(
    ("kind", "urgency", "expected"),
    [
        (ObservationType.FILE_DELETED, Urgency.URGENT, DecisionType.WAIT),
        (ObservationType.FILE_CREATED, Urgency.NOISE, DecisionType.WAIT),
        (ObservationType.TIME_ELAPSED, Urgency.LOW, DecisionType.WAIT),
        (ObservationType.FILE_CREATED, Urgency.URGENT, DecisionType.INVESTIGATE),
        (ObservationType.PROCESS_FAILED, Urgency.CRITICAL, DecisionType.ESCALATE),
    ],
)
async def test_observations_without_template(
    rules: RulesReasoner, kind: ObservationType, urgency: Urgency, expected: DecisionType
) -> None:
    seen = observe(kind, urgency, Category.INTAKE, "_intake/old.md")

    deliberation = await rules.deliberate(context_for(seen), RENDERED)

    assert deliberation.decision_type is expected
    assert_recorded_by_rules(deliberation)
    for step in deliberation.steps[:4]:
        assert -0.1 <= step.confidence_delta <= 0.2


async def test_the_thresholds_come_from_the_settings() -> None:
    cautious = RulesReasoner(ThresholdSettings(act=0.9))

    deliberation = await cautious.deliberate(new_intake_file(), RENDERED)

    assert deliberation.confidence == 0.85
    assert deliberation.decision_type is DecisionType.INVESTIGATE


# -- determinism ----------------------------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        new_intake_file,
        lambda: critical_failure(HANDLE_FAILURE),
        lambda: new_intake_file(patterns=(pattern(INTAKE_KEY, 7, 3),)),
    ],
)
async def test_same_input_same_output(rules: RulesReasoner, build: Any) -> None:
    context = build()

    first = await rules.deliberate(context, RENDERED)
    second = await rules.deliberate(context, RENDERED)
    third = await RulesReasoner(ThresholdSettings()).deliberate(
        DecisionContext.model_validate(context.model_dump()), RENDERED
    )

    assert stable(first) == stable(second) == stable(third)
