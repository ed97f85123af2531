"""The LLM reasoner under a storm of faulty replies, and the reply schemas' tolerance."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from cognition.deliberate import LLMReasoner
from cognition.deliberate.replies import (
    CategorizeReply,
    DecideReply,
    EvaluateReply,
    MatchPatternReply,
    ObserveReply,
)
from cognition.llm import LLMClient
from graph.models import DecisionType, ReasonerKind
from tests.cognition.deliberate.test_deliberate_rules import (
    HANDLE_FAILURE,
    RENDERED,
    critical_failure,
    new_intake_file,
)
from tests.support.llm_reasoner import GOOD, THRESHOLDS, assert_well_formed
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply

# -- a storm of faults ---------------------------------------------------------------


def _fault(rng: random.Random, step: str) -> Reply:
    good = dict(GOOD[step])
    kind = rng.randrange(12)
    if kind == 0:
        return Reply.text(json.dumps(good)[: rng.randrange(1, 40)])
    if kind == 1:
        return Reply.json({key: [value] for key, value in good.items()})
    if kind == 2:
        return Reply.json(rng.choice([[1, 2], "text", 7, None, {}]))
    if kind == 3:
        return Reply.error(rng.choice([500, 502, 503, 429]))
    if kind == 4:
        return Reply.text(rng.choice(["", "   ", "[" * 3000, "NaN", "<think>…</think>"]))
    if kind == 5:
        return Reply(status=200, body=rng.choice(["{}", "[]", "null", "<html>", '{"choices": 1}']))
    if kind == 6:
        return Reply.text(json.dumps(good).replace("0.", 'NaN, "x": 0.', 1))
    if kind == 7:
        bad = {"recommended_template": "rm -rf /", "confidence_delta": 1e308}
        return Reply.json(good | bad)
    if kind == 8:
        return Reply.json(good | {"significance": "apocalyptic", "recommended_option": "pray"})
    if kind == 9:
        return Reply.error(400, {"error": {"message": "context length exceeded"}})
    if kind == 10:
        return Reply.text("Sure! Here it is:\n```json\n" + json.dumps(good) + "\n```")
    return Reply.json(good | {"confidence_delta": rng.uniform(-3, 3), "extra": {"a": [1]}})


async def test_a_thousand_faults_crash_nothing(stub: LLMStub, client: LLMClient) -> None:
    rng = random.Random(20250611)
    faults = 0

    def storm(request: RecordedRequest) -> Reply:
        nonlocal faults
        step = request.step or "OBSERVE"
        if rng.random() < 0.4:
            return Reply.json(GOOD[step])
        faults += 1
        return _fault(rng, step)

    stub.default = storm
    reasoner = LLMReasoner(client, THRESHOLDS, deliberation="stepwise")
    contexts = [new_intake_file, critical_failure, lambda: critical_failure(HANDLE_FAILURE)]
    mixes: dict[str, int] = defaultdict(int)
    deliberations = 0
    while faults < 1000:
        deliberation = await reasoner.deliberate(contexts[deliberations % 3](), RENDERED)
        deliberations += 1
        assert_well_formed(deliberation, {"process_intake", "handle_failure"})
        llm_steps = sum(s.reasoner is ReasonerKind.LLM for s in deliberation.steps)
        mixes["all llm" if llm_steps == 5 else "no llm" if llm_steps == 0 else "mixed"] += 1

    assert all(mixes[k] > 10 for k in ("all llm", "mixed", "no llm")), mixes
    assert len(stub.chat_requests) > 1000


# -- tolerant replies ------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "raw", "expected"),
    [
        (
            ObserveReply,
            {"brief_summary": " x ", "key_facts": "one fact"},
            {"key_facts": ["one fact"]},
        ),
        (
            ObserveReply,
            {"brief_summary": "x", "significance": "Moderate"},
            {"significance": "medium"},
        ),
        (
            ObserveReply,
            {"brief_summary": "x", "confidence_delta": "+0.1"},
            {"confidence_delta": 0.1},
        ),
        (
            CategorizeReply,
            {"requires_action": False, "primary_intent": "New content"},
            {"requires_action": "no", "primary_intent": "new_content"},
        ),
        (
            CategorizeReply,
            {"requires_action": "Yes", "primary_intent": "refactor"},
            {"requires_action": "yes", "primary_intent": "unknown"},
        ),
        (
            MatchPatternReply,
            {"recommended_template": "None", "past_success_rate": "80%"},
            {"recommended_template": None, "past_success_rate": 80.0},
        ),
        (MatchPatternReply, {"pattern_confidence": 85}, {"pattern_confidence": 0.85}),
        (MatchPatternReply, {"pattern_confidence": -3}, {"pattern_confidence": 0.0}),
        (MatchPatternReply, {"past_success_rate": 250}, {"past_success_rate": 100.0}),
        (
            EvaluateReply,
            {"recommended_option": "ACT - run it now"},
            {"recommended_option": DecisionType.ACT},
        ),
        (DecideReply, {"investigation_questions": None}, {"investigation_questions": []}),
    ],
)
def test_replies_tolerate_harmless_slips(
    schema: type[BaseModel], raw: dict[str, Any], expected: dict[str, Any]
) -> None:
    reply = schema.model_validate(raw)
    assert {key: getattr(reply, key) for key in expected} == expected


@pytest.mark.parametrize(
    ("schema", "raw"),
    [
        (ObserveReply, {"brief_summary": "   "}),
        (ObserveReply, {"brief_summary": "x", "confidence_delta": float("nan")}),
        (ObserveReply, {"brief_summary": "x", "significance": "apocalyptic"}),
        (CategorizeReply, {"primary_intent": "update"}),
        (MatchPatternReply, {"past_success_rate": "often"}),
        (MatchPatternReply, {"pattern_confidence": float("nan")}),
        (EvaluateReply, {"recommended_option": "pray"}),
    ],
)
def test_replies_reject_what_cannot_be_read(schema: type[BaseModel], raw: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        schema.model_validate(raw)
