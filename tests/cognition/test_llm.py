"""LLMClient against the scripted OpenAI-compatible stub: good replies, repairs, reply formats."""

from __future__ import annotations

import json

import pytest

from cognition.llm import LLMClient
from tests.support.llm_client import GOOD, SYSTEM, USER, Decision, FakeClock, ask, settings_for
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply

# -- good replies -------------------------------------------------------------


async def test_good_reply_is_parsed_validated_and_measured(
    client: LLMClient, stub: LLMStub
) -> None:
    stub.script(Reply.json(GOOD))

    reply = await ask(client)

    assert reply.value == Decision(**GOOD)
    assert reply.ok and reply.error is None
    assert reply.attempts == 1
    assert reply.model == "stub-model"  # what the server says served it
    assert reply.latency_ms > 0
    assert reply.prompt_tokens == len(SYSTEM.split()) + len(USER.split())
    assert reply.completion_tokens == len(reply.raw.split()) > 0
    (request,) = stub.chat_requests
    assert request.model == "test-model"
    assert request.format_kind == "json_schema"  # the strictest format first
    assert request.reply_schema is not None
    assert request.reply_schema["required"] == ["decision", "confidence", "reasoning"]
    assert client.state.reply_format == "json_schema"
    assert [m["role"] for m in request.messages] == ["system", "user"]
    assert [m["content"] for m in request.messages] == [SYSTEM, USER]
    assert request.step == "deliberate"
    assert request.headers["authorization"] == "Bearer sk-test-secret-value"
    assert request.body is not None and request.body["max_tokens"] == 1024


@pytest.mark.parametrize(
    "content",
    [
        "```json\n" + '{"decision": "act", "confidence": 0.9, "reasoning": "r"}' + "\n```",
        "```\n" + '{"decision": "act", "confidence": 0.9, "reasoning": "r"}' + "\n```",
        '<think>hmm</think>\n{"decision": "act", "confidence": 0.9, "reasoning": "r"}',
        'Here you go: {"decision": "act", "confidence": 0.9, "reasoning": "r"} Done.',
    ],
)
async def test_wrapped_json_is_unwrapped(client: LLMClient, stub: LLMStub, content: str) -> None:
    stub.script(Reply.text(content))

    reply = await ask(client)

    assert reply.value == Decision(decision="act", confidence=0.9, reasoning="r")
    assert reply.attempts == 1


async def test_default_callable_answers_per_step(stub: LLMStub, clock: FakeClock) -> None:
    def by_step(request: RecordedRequest) -> Reply:
        if request.step == "frames":
            return Reply.json({**GOOD, "decision": "investigate"})
        return Reply.json(GOOD)

    stub.default = by_step
    async with LLMClient(settings_for(stub.base_url), clock=clock) as llm:
        frames = await ask(llm, step="frames")
        decide = await ask(llm, step="deliberate")

    assert frames.value is not None and frames.value.decision == "investigate"
    assert decide.value is not None and decide.value.decision == "wait"


# -- repair -------------------------------------------------------------------


async def test_broken_json_is_repaired_on_second_attempt(client: LLMClient, stub: LLMStub) -> None:
    broken = '{"decision": "wait", "confidence": 0.4,'
    stub.script(Reply.text(broken), Reply.json(GOOD))

    reply = await ask(client)

    assert reply.value == Decision(**GOOD)
    assert reply.attempts == 2
    _, second = stub.chat_requests
    # Tokens cover both requests, as the stub counts them (words).
    assert reply.prompt_tokens > 2 * (len(SYSTEM.split()) + len(USER.split()))
    assert reply.completion_tokens == len(broken.split()) + len(json.dumps(GOOD).split())
    assert [m["role"] for m in second.messages] == ["system", "user", "assistant", "user"]
    assert second.messages[2]["content"] == broken
    repair = second.messages[3]["content"]
    assert "not valid JSON" in repair
    assert "Expecting" in repair  # the parser's own words
    assert "only the corrected JSON" in repair


async def test_wrong_shape_twice_gives_no_value_and_no_exception(
    client: LLMClient, stub: LLMStub
) -> None:
    stub.script(Reply.json({"verdict": "yes"}), Reply.json({"decision": "maybe"}))

    reply = await ask(client)

    assert reply.value is None and not reply.ok
    assert reply.attempts == 2
    assert reply.error is not None
    assert "decision" in reply.error and "does not fit the schema" in reply.error
    assert reply.raw == '{"decision": "maybe"}'
    second = stub.chat_requests[1]
    assert "decision: Field required" in second.messages[3]["content"]
    # A bad reply says nothing about the endpoint: no backoff.
    assert not client.backing_off
    assert len(stub.chat_requests) == 2


async def test_empty_and_malformed_completions_are_bad_replies(
    client: LLMClient, stub: LLMStub
) -> None:
    stub.script(
        Reply(status=200, body="{}"),
        Reply(status=200, body='{"choices": [{"message": {"content": 5}}], "usage": 7}'),
    )

    reply = await ask(client)

    assert reply.value is None
    assert reply.error == "the reply was empty"
    assert reply.attempts == 2


# -- response_format ----------------------------------------------------------


@pytest.mark.parametrize(
    ("refused", "accepted"),
    [
        (set(), "json_schema"),  # OpenAI, vLLM, Ollama, llama-server
        ({"json_object"}, "json_schema"),  # LM Studio: refuses plain JSON mode only
        ({"json_schema"}, "json_object_schema"),  # llama-cpp-python's server
        ({"json_schema", "json_object_schema"}, "json_object"),
        ({"json_schema", "json_object_schema", "json_object"}, "none"),
    ],
)
async def test_the_format_ladder_stops_at_the_first_accepted_and_remembers_it(
    client: LLMClient, stub: LLMStub, refused: set[str], accepted: str
) -> None:
    stub.refused_formats = refused
    stub.script(Reply.json(GOOD), Reply.json(GOOD))

    first = await ask(client)
    second = await ask(client)

    assert first.value == second.value == Decision(**GOOD)
    kinds = [r.format_kind for r in stub.chat_requests]
    ladder = ["json_schema", "json_object_schema", "json_object", "none"]
    tried = ladder[: ladder.index(accepted) + 1]
    assert kinds == [*tried, accepted]  # the second call goes straight to the accepted one
    assert first.reply_format == second.reply_format == accepted
    assert client.state.reply_format == accepted
    assert not client.backing_off


async def test_llama_cpp_pythons_500_for_an_unknown_format_is_a_refusal(
    client: LLMClient, stub: LLMStub
) -> None:
    # What llama-cpp-python 0.3.x answers to {"type": "json_schema"} (measured).
    stub.refused_formats = {"json_schema"}
    stub.refusal = Reply.error(
        500,
        {"error": {"message": "1 validation error: ('body', 'response_format', 'type')"}},
    )
    stub.script(Reply.json(GOOD))

    reply = await ask(client)

    assert reply.ok and reply.reply_format == "json_object_schema"
    assert [r.format_kind for r in stub.chat_requests] == ["json_schema", "json_object_schema"]
    assert not client.backing_off


async def test_request_rejected_in_every_format_is_an_error_reply(
    client: LLMClient, stub: LLMStub
) -> None:
    stub.default = Reply.error(400, {"error": {"message": "context length exceeded"}})

    reply = await ask(client)

    assert reply.value is None
    assert reply.error is not None and "400" in reply.error and "context length" in reply.error
    assert not client.backing_off
    kinds = [r.format_kind for r in stub.chat_requests]
    assert kinds == ["json_schema", "json_object_schema", "json_object", "none"]
    assert client.state.reply_format is None  # nothing was accepted, nothing remembered


async def test_once_a_format_is_accepted_a_refusal_is_the_requests_own(
    client: LLMClient, stub: LLMStub
) -> None:
    stub.script(Reply.json(GOOD), Reply.error(400, {"error": {"message": "too long"}}))

    assert (await ask(client)).ok
    refused = await ask(client)

    assert refused.value is None and refused.attempts == 1
    assert [r.format_kind for r in stub.chat_requests] == ["json_schema", "json_schema"]
    assert client.state.reply_format == "json_schema"


async def test_a_pinned_format_is_the_only_one_sent(stub: LLMStub, clock: FakeClock) -> None:
    settings = settings_for(stub.base_url, response_format="json_object")
    stub.script(Reply.json(GOOD))
    async with LLMClient(settings, clock=clock) as llm:
        assert llm.state.reply_format == "json_object"
        assert (await ask(llm)).ok
    assert stub.chat_requests[0].response_format == {"type": "json_object"}


async def test_a_non_strict_schema_is_refused_by_the_stub(stub: LLMStub) -> None:
    # The stub is only useful if it would catch a schema a strict server refuses.
    from tests.support.schema_instance import strict_problems

    loose = {"type": "object", "properties": {"a": {"type": "string"}}}
    fmt = {"type": "json_schema", "json_schema": {"name": "x", "schema": loose, "strict": True}}
    problems = strict_problems(fmt)
    assert any("additionalProperties" in p for p in problems)
    assert any("required" in p for p in problems)


async def test_the_stub_answers_within_the_schema(client: LLMClient, stub: LLMStub) -> None:
    stub.answer_from_schema = True

    reply = await ask(client)

    assert reply.ok and reply.attempts == 1
    assert reply.value == Decision(decision="act", confidence=0, reasoning="s")
