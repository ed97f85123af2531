"""The single-call deliberation against the stub: one request, five recorded steps."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from cognition.deliberate import LLMReasoner
from cognition.deliberate.prompts import SYSTEM_PROMPT
from cognition.deliberate.single_call import single_prompt
from cognition.llm import LLMClient
from cognition.schemas import RenderedContext
from graph.models import DecisionType, ReasonerKind
from rsi.strategies import CarriedPrompt
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
    assert_well_formed,
    settings_for,
)
from tests.support.llm_stub import LLMStub, Reply

KEYS = ["observe", "categorize", "match_pattern", "evaluate", "decide"]


def whole(**changes: dict[str, Any]) -> dict[str, Any]:
    """The five good step objects under their reply keys, with ``changes`` merged in."""
    reply = {
        key: copy.deepcopy(GOOD[name.value]) for key, name in zip(KEYS, STEP_NAMES, strict=True)
    }
    for key, change in changes.items():
        reply[key] |= change
    return reply


@pytest.fixture
def stub() -> Iterator[LLMStub]:
    with LLMStub() as server:
        server.default = Reply.json(whole())
        yield server


@pytest.fixture
async def client(stub: LLMStub) -> AsyncIterator[LLMClient]:
    async with LLMClient(settings_for(stub.base_url)) as llm:
        yield llm


async def test_one_request_gives_five_llm_steps_sharing_its_cost(
    client: LLMClient, stub: LLMStub
) -> None:
    reasoner = LLMReasoner(client, THRESHOLDS)  # single_call is the default

    deliberation = await reasoner.deliberate(new_intake_file(), RENDERED)

    (request,) = stub.chat_requests
    assert request.step == "DELIBERATE"
    assert request.format_kind == "json_schema"
    assert request.reply_schema is not None and request.reply_schema["required"] == KEYS
    assert request.messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
    user = str(request.messages[1]["content"])
    # The instructions every decision shares come first, this decision's facts last.
    assert user.startswith("TASK:") and RENDERED.text in user
    assert user.index("The shape of each key's object:") < user.index(RENDERED.text)
    assert user.index(RENDERED.text) < user.index("THIS DECISION:")
    assert "_intake/note.md" in user and "- process_intake: " in user

    assert deliberation.reasoner is ReasonerKind.LLM
    assert deliberation.decision_type is DecisionType.ACT
    assert deliberation.confidence == 0.9  # the same deltas as the stepwise run
    assert deliberation.template == "process_intake"
    assert [s.confidence_delta for s in deliberation.steps] == [0.15, 0.1, 0.1, 0.05, 0.0]
    call_ids = {s.call_id for s in deliberation.steps}
    assert len(call_ids) == 1 and None not in call_ids
    usage = sum(len(str(m["content"]).split()) for m in request.messages)
    usage += len(stub.default.content.split())  # type: ignore[union-attr]
    assert abs(sum(s.tokens for s in deliberation.steps) - usage) <= 5  # rounding per step
    assert all(s.tokens > 0 and s.latency_ms > 0 for s in deliberation.steps)
    assert_well_formed(deliberation, {"process_intake"})
    assert client.state.steps_last_hour() == (5, 0)


async def test_a_bad_part_sends_only_that_step_to_the_rules(
    client: LLMClient, stub: LLMStub
) -> None:
    stub.default = Reply.json(whole(evaluate={"recommended_option": "dance"}))
    reasoner = LLMReasoner(client, THRESHOLDS)

    deliberation = await reasoner.deliberate(new_intake_file(), RENDERED)

    assert len(stub.chat_requests) == 2  # the repair was asked for, and was as bad
    by_name = {s.name.value: s for s in deliberation.steps}
    assert by_name["EVALUATE"].reasoner is ReasonerKind.RULES
    assert (
        by_name["EVALUATE"].error is not None and "recommended_option" in by_name["EVALUATE"].error
    )
    assert by_name["EVALUATE"].call_id == by_name["OBSERVE"].call_id  # it came from that call
    others = [s for s in deliberation.steps if s.name.value != "EVALUATE"]
    assert all(s.reasoner is ReasonerKind.LLM for s in others)
    assert deliberation.reasoner is ReasonerKind.RULES  # not all five from the model
    assert_well_formed(deliberation, {"process_intake"})
    assert client.state.steps_last_hour() == (5, 1)


async def test_a_repaired_reply_counts_all_five(client: LLMClient, stub: LLMStub) -> None:
    stub.script(Reply.text("{not json"), Reply.json(whole()))
    deliberation = await LLMReasoner(client, THRESHOLDS).deliberate(new_intake_file(), RENDERED)
    assert len(stub.chat_requests) == 2
    assert all(s.reasoner is ReasonerKind.LLM for s in deliberation.steps)


async def test_no_endpoint_gives_the_rules_every_step() -> None:
    async with LLMClient(settings_for(closed_port_url())) as llm:
        deliberation = await LLMReasoner(llm, THRESHOLDS).deliberate(new_intake_file(), RENDERED)
    assert all(s.reasoner is ReasonerKind.RULES for s in deliberation.steps)
    assert all(s.call_id is None for s in deliberation.steps)
    assert all("LLM not asked" in (s.error or "") for s in deliberation.steps)
    assert_well_formed(deliberation, {"process_intake"})


@pytest.mark.parametrize("mode", ["single_call", "stepwise"])
@pytest.mark.parametrize("refused", [set(), {"json_schema"}])
async def test_a_constraining_server_gives_valid_steps_on_the_first_try(
    stub: LLMStub, mode: str, refused: set[str]
) -> None:
    # The stub answers with the simplest instance of whatever schema it is sent,
    # as a grammar-constrained server would: every reply schema must admit only
    # replies our models accept, or this falls back.
    stub.default = Reply.error(500, "no scripted reply")
    stub.answer_from_schema = True
    stub.refused_formats = refused
    async with LLMClient(settings_for(stub.base_url)) as llm:
        reasoner = LLMReasoner(llm, THRESHOLDS, deliberation=mode)  # type: ignore[arg-type]
        deliberation = await reasoner.deliberate(new_intake_file(), RENDERED)
    assert [s.reasoner for s in deliberation.steps] == [ReasonerKind.LLM] * 5
    answered = [r for r in stub.chat_requests if r.format_kind not in refused]
    assert len(answered) == (1 if mode == "single_call" else 5)
    assert_well_formed(deliberation, {"process_intake"})


async def test_the_system_prompt_comes_from_the_provider_and_stays_the_same(
    client: LLMClient, stub: LLMStub
) -> None:
    from tests.support.llm_reasoner import Script

    stub.default = Script()
    calls = 0
    carried = CarriedPrompt("CONSTITUTION: be careful.\nSTRATEGIES: none yet.", ())

    async def provider() -> CarriedPrompt:
        nonlocal calls
        calls += 1
        return carried

    reasoner = LLMReasoner(client, THRESHOLDS, deliberation="stepwise", system_prompt=provider)
    await reasoner.deliberate(new_intake_file(), RENDERED)

    assert calls == 1  # once per deliberation, so every request of it shares the prefix
    systems = [r.messages[0] for r in stub.chat_requests]
    assert len(systems) == 5
    assert all(m == {"role": "system", "content": carried.text} for m in systems)
    # The deliberation's own instructions open every user message, after the carried prompt.
    users = [str(r.messages[1]["content"]) for r in stub.chat_requests]
    assert all(u.startswith(SYSTEM_PROMPT) for u in users)


def test_an_unknown_mode_is_refused(client: LLMClient) -> None:
    with pytest.raises(ValueError, match="deliberation"):
        LLMReasoner(client, THRESHOLDS, deliberation="chatty")  # type: ignore[arg-type]


async def test_out_of_range_numbers_are_clamped_and_noted_without_a_second_request(
    client: LLMClient, stub: LLMStub
) -> None:
    stub.default = Reply.json(
        whole(
            observe={"confidence_delta": 0.9},
            match_pattern={"pattern_confidence": -0.2, "past_success_rate": 250},
            evaluate={
                "options": [
                    {"option": "act", "likelihood_of_success": 150},
                    {"option": "wait", "likelihood_of_success": 30},
                ]
            },
        )
    )

    deliberation = await LLMReasoner(client, THRESHOLDS).deliberate(new_intake_file(), RENDERED)

    assert len(stub.chat_requests) == 1  # valid on the first try: no repair asked
    assert all(s.reasoner is ReasonerKind.LLM and s.error is None for s in deliberation.steps)
    by_name = {s.name.value: s for s in deliberation.steps}
    match = by_name["MATCH_PATTERN"]
    assert match.output["pattern_confidence"] == 0.0
    assert match.output["past_success_rate"] == 100.0
    assert match.output["clamped"] == [
        "past_success_rate 250 clamped to 100",
        "pattern_confidence -0.2 clamped to 0",
    ]
    evaluate = by_name["EVALUATE"]
    assert [o["likelihood_of_success"] for o in evaluate.output["options"]] == [100.0, 30.0]
    assert evaluate.output["clamped"] == ["options[0].likelihood_of_success 150 clamped to 100"]
    observe = by_name["OBSERVE"]
    assert observe.confidence_delta < 0.9
    assert observe.output["clamped"] == [
        f"confidence_delta 0.9 clamped to {observe.confidence_delta:g}"
    ]
    assert "clamped" not in by_name["CATEGORIZE"].output
    assert client.state.steps_last_hour() == (5, 0)


def test_two_decisions_share_their_prompt_up_to_the_context() -> None:
    # A server that caches prefixes evaluates the instructions once for both.
    first = single_prompt(new_intake_file(), RENDERED, THRESHOLDS)
    other = RenderedContext(text="## Observations\n- task_failed", sections=[], token_estimate=5)
    second = single_prompt(critical_failure(), other, THRESHOLDS)
    shared = next(i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b)
    assert first.index("CONTEXT (recalled memory") < shared
    assert "process_intake" not in first[:shared]
