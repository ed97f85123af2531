"""The LLM reasoner against the stub: a good run, repairs, and falling back to the rules."""

from __future__ import annotations

import time

from cognition.deliberate import LLMReasoner, RulesReasoner
from cognition.deliberate.prompts import SYSTEM_PROMPT
from cognition.llm import LLMClient
from graph.models import DecisionType, ReasonerKind
from tests.cognition.deliberate.test_deliberate_rules import (
    RENDERED,
    critical_failure,
    new_intake_file,
)
from tests.support.llm_client import closed_port_url
from tests.support.llm_reasoner import (
    GOOD,
    STEP_NAMES,
    THRESHOLDS,
    Script,
    assert_well_formed,
    settings_for,
    user_message,
)
from tests.support.llm_stub import LLMStub, Reply

# -- a good run -------------------------------------------------------------------


async def test_a_good_run_records_five_llm_steps(reasoner: LLMReasoner, stub: LLMStub) -> None:
    deliberation = await reasoner.deliberate(new_intake_file(), RENDERED)

    assert deliberation.reasoner is ReasonerKind.LLM and deliberation.model == "stub-model"
    assert deliberation.decision_type is DecisionType.ACT
    assert deliberation.raw_confidence == deliberation.confidence == 0.9
    assert deliberation.template == "process_intake"
    assert deliberation.summary == "A new note arrived in the intake folder."
    assert deliberation.key_facts == GOOD["OBSERVE"]["key_facts"]
    assert deliberation.significance == "high"
    assert deliberation.reasoning.startswith(
        "OBSERVE: A new note arrived in the intake folder. -> CATEGORIZE: Intent: new_content"
        " -> MATCH_PATTERN: Template: process_intake -> EVALUATE: The intake template fits"
    )
    assert deliberation.reasoning.endswith(
        "-> DECIDE: act (confidence 0.90): A fresh intake file is what process_intake is for."
    )
    for step in deliberation.steps:
        assert step.reasoner is ReasonerKind.LLM and step.model == "stub-model"
        assert step.latency_ms > 0 and step.tokens > 0 and step.error is None
    assert [s.confidence_delta for s in deliberation.steps] == [0.15, 0.1, 0.1, 0.05, 0.0]
    assert deliberation.steps[2].output["pattern_confidence"] == 0.8
    assert deliberation.steps[3].output["options"][0]["option"] == "act"
    assert_well_formed(deliberation, {"process_intake"})

    requests = stub.chat_requests
    assert [r.step for r in requests] == [name.value for name in STEP_NAMES]
    for request in requests:
        assert request.messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
        assert RENDERED.text in user_message(request)
    assert "_intake/note.md" in user_message(requests[0])
    assert "A new note arrived in the intake folder." in user_message(requests[1])
    assert "- process_intake: " in user_message(requests[2])
    assert 'the decision is "act"' in user_message(requests[4])


async def test_broken_json_on_one_step_is_repaired(reasoner: LLMReasoner, stub: LLMStub) -> None:
    stub.default = Script(CATEGORIZE=[Reply.text('{"primary_intent": "new_content", "requi')])

    deliberation = await reasoner.deliberate(new_intake_file(), RENDERED)

    assert len(stub.chat_requests) == 6
    categorize = deliberation.steps[1]
    assert categorize.reasoner is ReasonerKind.LLM and categorize.error is None
    assert deliberation.reasoner is ReasonerKind.LLM
    assert deliberation.decision_type is DecisionType.ACT


async def test_wrong_shapes_twice_fall_back_to_rules_for_that_step_only(
    reasoner: LLMReasoner, stub: LLMStub
) -> None:
    stub.default = Script(
        MATCH_PATTERN=[
            Reply.json({"recommended_template": ["process_intake"], "pattern_confidence": 7}),
            Reply.json([1, 2, 3]),
        ]
    )

    deliberation = await reasoner.deliberate(new_intake_file(), RENDERED)

    assert len(stub.chat_requests) == 6
    match = deliberation.steps[2]
    assert match.reasoner is ReasonerKind.RULES and match.model is None
    assert match.error is not None
    assert match.error.startswith("no usable reply after 2 attempt(s)")
    assert "does not fit the schema" in match.error
    assert match.tokens > 0  # the failed requests still cost something
    assert match.output["recommended_template"] == "process_intake"
    others = [s for i, s in enumerate(deliberation.steps) if i != 2]
    assert all(s.reasoner is ReasonerKind.LLM and s.error is None for s in others)
    # Not all steps came from the model: the deliberation says rules, and which model helped.
    assert deliberation.reasoner is ReasonerKind.RULES and deliberation.model == "stub-model"
    assert deliberation.template == "process_intake"
    assert_well_formed(deliberation, {"process_intake"})


async def test_endpoint_errors_hand_every_later_step_to_the_rules(
    reasoner: LLMReasoner, stub: LLMStub
) -> None:
    stub.default = Reply.error(500)

    deliberation = await reasoner.deliberate(new_intake_file(), RENDERED)
    by_rules = await RulesReasoner(THRESHOLDS).deliberate(new_intake_file(), RENDERED)

    assert len(stub.chat_requests) == 1  # nothing asked after the first failure
    assert all(s.reasoner is ReasonerKind.RULES for s in deliberation.steps)
    errors = [s.error or "" for s in deliberation.steps]
    assert "HTTP 500" in errors[0]
    assert all(e.startswith("LLM not asked:") for e in errors[1:])
    assert deliberation.reasoner is ReasonerKind.RULES and deliberation.model is None
    assert deliberation.decision_type is by_rules.decision_type is DecisionType.ACT
    assert deliberation.confidence == by_rules.confidence


async def test_an_endpoint_lost_mid_deliberation(reasoner: LLMReasoner, stub: LLMStub) -> None:
    stub.default = Script(EVALUATE=[Reply.error(503)])

    deliberation = await reasoner.deliberate(new_intake_file(), RENDERED)

    kinds = [s.reasoner for s in deliberation.steps]
    assert kinds == [ReasonerKind.LLM] * 3 + [ReasonerKind.RULES] * 2
    assert len(stub.chat_requests) == 4
    assert_well_formed(deliberation, {"process_intake"})


async def test_no_server_at_all_gives_rules_for_every_step() -> None:
    async with LLMClient(settings_for(closed_port_url())) as llm:
        deliberation = await LLMReasoner(llm, THRESHOLDS, deliberation="stepwise").deliberate(
            critical_failure(), RENDERED
        )

    assert all(s.reasoner is ReasonerKind.RULES for s in deliberation.steps)
    assert "connection failed" in (deliberation.steps[0].error or "")
    assert deliberation.decision_type is DecisionType.ESCALATE


async def test_a_slow_reply_falls_back_within_bounded_time(stub: LLMStub) -> None:
    stub.default = Script(OBSERVE=[Reply.json(GOOD["OBSERVE"], delay_s=5.0)])
    async with LLMClient(settings_for(stub.base_url, timeout_s=0.3, timeout_ceiling_s=0.3)) as llm:
        started = time.perf_counter()
        deliberation = await LLMReasoner(llm, THRESHOLDS, deliberation="stepwise").deliberate(
            new_intake_file(), RENDERED
        )
        elapsed = time.perf_counter() - started

    assert elapsed < 2.0
    assert all(s.reasoner is ReasonerKind.RULES for s in deliberation.steps)
    assert "timed out" in (deliberation.steps[0].error or "")
    assert deliberation.steps[0].latency_ms >= 300
    assert len(stub.chat_requests) == 1
