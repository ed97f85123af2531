"""Helpers of the LLM reasoner tests: each step's good reply, a per-step script, the checks."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pydantic import SecretStr

from cognition.deliberate import decision_type
from cognition.schemas import Deliberation
from graph.models import DecisionType, ReasonerKind, StepName
from graph.settings import LLMSettings, ThresholdSettings
from tests.support.llm_stub import RecordedRequest, Reply

THRESHOLDS = ThresholdSettings()
# The five steps in order, as every reasoner's deliberation lists them.
STEP_NAMES = [
    StepName.OBSERVE,
    StepName.CATEGORIZE,
    StepName.MATCH_PATTERN,
    StepName.EVALUATE,
    StepName.DECIDE,
]
GOOD: dict[str, dict[str, Any]] = {
    "OBSERVE": {
        "brief_summary": "A new note arrived in the intake folder.",
        "key_facts": ["path _intake/note.md", "markdown", "120 bytes"],
        "significance": "High",
        "confidence_delta": 0.15,
    },
    "CATEGORIZE": {
        "primary_intent": "new_content",
        "domain": "content",
        "requires_action": True,
        "action_urgency": "soon",
        "confidence_delta": 0.1,
    },
    "MATCH_PATTERN": {
        "matched_pattern": "new intake file",
        "recommended_template": "process_intake",
        "past_success_rate": "unknown",
        "pattern_confidence": 80,
        "confidence_delta": 0.1,
    },
    "EVALUATE": {
        "options": [
            {"option": "ACT", "likelihood_of_success": 80, "risk_level": "low"},
            {"option": "wait", "likelihood_of_success": 40, "resource_cost": "low"},
        ],
        "recommended_option": "act",
        "reasoning": "The intake template fits and nothing argues against it.",
        "confidence_delta": 0.05,
    },
    "DECIDE": {
        "rationale": "A fresh intake file is what process_intake is for.",
        "investigation_questions": [],
    },
}


class Script:
    """Answers each step with the replies queued for it, then with its good reply."""

    def __init__(self, **queued: list[Reply]) -> None:
        self.queued: dict[str, list[Reply]] = defaultdict(list, queued)
        self.good: dict[str, dict[str, Any]] = {k: dict(v) for k, v in GOOD.items()}

    def __call__(self, request: RecordedRequest) -> Reply:
        step = request.step or ""
        if self.queued[step]:
            return self.queued[step].pop(0)
        return Reply.json(self.good[step])


def settings_for(base_url: str, **overrides: Any) -> LLMSettings:
    values: dict[str, Any] = {
        "base_url": base_url,
        "model": "test-model",
        "api_key": SecretStr("sk-test"),
        "timeout_s": 2.0,
        # No backoff of its own: the reasoner must stop asking by itself.
        "health_backoff_s": [0.0],
    }
    return LLMSettings(**(values | overrides))


def user_message(request: RecordedRequest) -> str:
    return str(request.messages[1]["content"])


def assert_well_formed(deliberation: Deliberation, offered: set[str]) -> None:
    """What every deliberation must satisfy, whatever the model did."""
    again = Deliberation.model_validate(deliberation.model_dump(mode="json"))
    assert again.decision_type is deliberation.decision_type
    assert [s.name for s in deliberation.steps] == STEP_NAMES
    assert [s.order for s in deliberation.steps] == [0, 1, 2, 3, 4]
    assert 0.0 <= deliberation.confidence <= 1.0
    expected = decision_type(
        deliberation.confidence, critical=deliberation.is_critical, thresholds=THRESHOLDS
    )
    assert deliberation.decision_type is expected
    assert deliberation.template is None or deliberation.template in offered
    for step in deliberation.steps:
        assert (step.reasoner is ReasonerKind.LLM) == (step.error is None)
        assert step.latency_ms >= 0 and step.tokens >= 0
    all_llm = all(s.reasoner is ReasonerKind.LLM for s in deliberation.steps)
    assert deliberation.reasoner is (ReasonerKind.LLM if all_llm else ReasonerKind.RULES)
    if deliberation.decision_type is DecisionType.INVESTIGATE:
        assert 3 <= len(deliberation.investigation_questions) <= 5
