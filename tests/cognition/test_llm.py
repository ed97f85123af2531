"""LLMClient against the scripted OpenAI-compatible stub, over real HTTP."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import socket
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field, SecretStr

from cognition.errors import CognitionError, LLMBusyError, LLMTimeoutError, LLMUnavailableError
from cognition.llm import LLMClient, LLMReply
from cognition.llm_pacing import request_timeout
from graph.settings import LLMSettings
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply

SYSTEM = "You decide what to do. Answer in JSON."
USER = "A file changed: notes/today.md"


class Decision(BaseModel):
    decision: Literal["act", "wait", "investigate"]
    confidence: float = Field(ge=0, le=1)
    reasoning: str


GOOD = {"decision": "wait", "confidence": 0.4, "reasoning": "nothing significant"}


class FakeClock:
    """Monotonic seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def stub() -> Iterator[LLMStub]:
    with LLMStub() as server:
        yield server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def settings_for(base_url: str, **overrides: Any) -> LLMSettings:
    values: dict[str, Any] = {
        "base_url": base_url,
        "model": "test-model",
        "api_key": SecretStr("sk-test-secret-value"),
        "timeout_s": 2.0,
        "health_backoff_s": [5.0, 15.0, 60.0],
    }
    values.update(overrides)
    return LLMSettings(**values)


@pytest.fixture
async def client(stub: LLMStub, clock: FakeClock) -> AsyncIterator[LLMClient]:
    async with LLMClient(settings_for(stub.base_url), clock=clock) as llm:
        yield llm


async def ask(llm: LLMClient, step: str = "deliberate") -> LLMReply[Decision]:
    return await llm.complete_json(system=SYSTEM, user=USER, schema=Decision, step=step)


def closed_port_url() -> str:
    # Bind then close: nothing listens there for the rest of the test.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


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


# -- the endpoint's state, for the banner and status ----------------------------


async def test_probe_records_model_format_and_health(client: LLMClient, stub: LLMStub) -> None:
    stub.refused_formats = {"json_schema"}
    stub.answer_from_schema = True
    assert "not asked yet" in client.state.describe()

    state = await client.probe()

    assert state.answers is True
    assert state.served_model == "stub-model"
    assert state.reply_format == "json_object_schema"
    text = state.describe()
    assert "answers" in text and "stub-model" in text and "json_object_schema" in text
    assert state.requests_sent == 2  # one refused, one accepted


async def test_probe_of_a_dead_endpoint_says_so(clock: FakeClock) -> None:
    async with LLMClient(settings_for(closed_port_url()), clock=clock) as llm:
        state = await llm.probe()
    assert state.answers is False
    assert state.reply_format is None
    assert "does not answer" in state.describe()


def test_fallback_share_covers_the_last_hour_only(clock: FakeClock) -> None:
    from cognition.llm_state import LLMState

    state = LLMState(base_url="http://x/v1", clock=clock)
    assert state.fallback_share() is None
    state.record_steps(by_llm=3, fell_back=2)
    clock.advance(1800)
    state.record_steps(by_llm=5, fell_back=0)
    assert state.steps_last_hour() == (10, 2)
    assert state.fallback_share() == pytest.approx(0.2)
    clock.advance(1801)  # the first deliberation is now older than an hour
    assert state.steps_last_hour() == (5, 0)
    assert "fell back 0% of 5 steps" in state.describe()


# -- unavailability and backoff -----------------------------------------------


@pytest.mark.parametrize("status", [500, 503, 429, 401, 404])
async def test_server_errors_raise_unavailable_without_sdk_retries(
    client: LLMClient, stub: LLMStub, status: int
) -> None:
    stub.default = Reply.error(status)

    with pytest.raises(LLMUnavailableError, match=f"HTTP {status}") as caught:
        await ask(client)

    assert isinstance(caught.value, CognitionError)
    assert len(stub.chat_requests) == 1
    assert client.backing_off


async def test_backoff_escalates_and_resets(
    client: LLMClient, stub: LLMStub, clock: FakeClock
) -> None:
    stub.default = Reply.error(500)
    with pytest.raises(LLMUnavailableError):
        await ask(client)
    stub.healthy = False

    # Within the first delay (5 s): no request at all.
    clock.advance(4.9)
    assert await client.healthy() is False
    with pytest.raises(LLMUnavailableError, match="backing off"):
        await ask(client)
    assert len(stub.model_requests) == 0 and len(stub.chat_requests) == 1

    # After it, one real check; it fails, and the next delay is 15 s.
    clock.advance(0.2)
    assert await client.healthy() is False
    assert len(stub.model_requests) == 1
    clock.advance(14.9)
    assert await client.healthy() is False
    assert len(stub.model_requests) == 1
    clock.advance(0.2)
    stub.healthy = True
    assert await client.healthy() is True
    assert len(stub.model_requests) == 2
    assert not client.backing_off

    # Success reset the ladder: the next failure waits 5 s again, not 60 s.
    stub.healthy = False
    assert await client.healthy() is False
    clock.advance(5.0)
    stub.healthy = True
    assert await client.healthy() is True


async def test_delays_stay_at_the_last_step(stub: LLMStub, clock: FakeClock) -> None:
    stub.healthy = False
    settings = settings_for(stub.base_url, health_backoff_s=[1.0, 2.0])
    async with LLMClient(settings, clock=clock) as llm:
        for delay in [1.0, 2.0, 2.0, 2.0]:
            assert await llm.healthy() is False
            clock.advance(delay - 0.01)
            assert llm.backing_off
            clock.advance(0.01)
            assert not llm.backing_off


async def test_a_good_completion_ends_the_backoff(
    client: LLMClient, stub: LLMStub, clock: FakeClock
) -> None:
    stub.script(Reply.error(503), Reply.json(GOOD))
    with pytest.raises(LLMUnavailableError):
        await ask(client)
    clock.advance(5.0)

    reply = await ask(client)

    assert reply.ok and not client.backing_off


async def test_slow_reply_times_out_within_bound(stub: LLMStub, clock: FakeClock) -> None:
    stub.script(Reply.json(GOOD, delay_s=10.0))
    settings = settings_for(stub.base_url, timeout_s=0.3, timeout_ceiling_s=0.3)
    async with LLMClient(settings, clock=clock) as llm:
        started = time.perf_counter()
        with pytest.raises(LLMTimeoutError, match="timed out"):
            await ask(llm)
        elapsed = time.perf_counter() - started

    assert elapsed < 2.0
    assert len(stub.chat_requests) == 1


# -- a slow model is a normal model -----------------------------------------------


def test_the_timeout_follows_the_request_between_floor_and_ceiling() -> None:
    settings = settings_for(
        "http://127.0.0.1:1/v1",
        timeout_s=60.0,
        timeout_ceiling_s=900.0,
        prompt_tokens_per_s=10.0,
        completion_tokens_per_s=2.0,
    )
    # 1,744 prompt tokens (about 7,000 characters) and 512 to generate: the
    # crystallization request that a fixed 60 s cut off.
    assert request_timeout(settings, 6976, 512) == pytest.approx(174.4 + 256.0)
    assert request_timeout(settings, 40, 16) == 60.0  # small: the floor
    assert request_timeout(settings, 400_000, 4096) == 900.0  # huge: the ceiling
    longer = request_timeout(settings, 8000, 512)
    assert longer > request_timeout(settings, 6976, 512)
    assert request_timeout(settings, 6976, 1024) > request_timeout(settings, 6976, 512)


async def test_a_slow_reply_inside_its_sized_timeout_is_a_reply(
    stub: LLMStub, clock: FakeClock
) -> None:
    # The floor alone (0.3 s) would cut a 1 s reply; 16 tokens at 10/s allow 1.6 s.
    stub.script(Reply.json(GOOD, delay_s=1.0))
    settings = settings_for(
        stub.base_url,
        timeout_s=0.3,
        timeout_ceiling_s=30.0,
        prompt_tokens_per_s=1e6,
        completion_tokens_per_s=10.0,
    )
    async with LLMClient(settings, clock=clock) as llm:
        reply = await llm.complete_json(
            system=SYSTEM, user=USER, schema=Decision, step="crystallize", max_tokens=16
        )

    assert reply.ok and reply.attempts == 1
    assert reply.latency_ms >= 1000
    assert llm.state.answers is True and not llm.backing_off


async def test_a_timeout_is_not_an_outage_and_the_next_request_is_sent(
    stub: LLMStub, clock: FakeClock
) -> None:
    stub.script(Reply.json(GOOD, delay_s=3.0), Reply.json(GOOD))
    settings = settings_for(stub.base_url, timeout_s=0.3, timeout_ceiling_s=0.3)
    async with LLMClient(settings, clock=clock) as llm:
        with pytest.raises(LLMTimeoutError):
            await ask(llm)
        assert not llm.backing_off  # no backoff for one slow reply

        reply = await ask(llm)  # sent, not refused "at once"

    assert reply.ok
    assert len(stub.chat_requests) == 2


async def test_a_busy_health_check_is_not_an_outage(stub: LLMStub, clock: FakeClock) -> None:
    stub.models_reply = Reply(status=200, body='{"data": [{"id": "m"}]}', delay_s=2.0)
    stub.script(Reply.json(GOOD))
    settings = settings_for(stub.base_url, timeout_s=0.3)
    async with LLMClient(settings, clock=clock) as llm:
        assert await llm.healthy() is False
        assert not llm.backing_off
        assert "timed out" in (llm.state.last_error or "")
        reply = await ask(llm)
    assert reply.ok


async def test_a_decision_behind_long_background_work_goes_to_the_rules_quickly(
    stub: LLMStub, clock: FakeClock
) -> None:
    stub.script(Reply.json(GOOD, delay_s=2.0), Reply.json(GOOD))
    settings = settings_for(stub.base_url, decision_wait_s=0.3)
    async with LLMClient(settings, clock=clock) as llm:
        background = asyncio.create_task(ask(llm, step="crystallize"))
        while not stub.chat_requests:
            await asyncio.sleep(0.01)
        started = time.perf_counter()
        with pytest.raises(LLMBusyError, match="rules decide"):
            await llm.complete_json(
                system=SYSTEM, user=USER, schema=Decision, step="DELIBERATE", priority="decision"
            )
        waited = time.perf_counter() - started
        assert (await background).ok  # the background request was not harmed
        assert not llm.backing_off
        after = await llm.complete_json(
            system=SYSTEM, user=USER, schema=Decision, step="DELIBERATE", priority="decision"
        )

    assert waited < 1.5
    assert after.ok
    assert [r.step for r in stub.chat_requests] == ["crystallize", "DELIBERATE"]


async def test_models_endpoint_down_is_unhealthy(client: LLMClient, stub: LLMStub) -> None:
    assert await client.healthy() is True
    stub.healthy = False

    assert await client.healthy() is False
    assert len(stub.model_requests) == 2
    assert client.backing_off


@pytest.mark.parametrize(
    "body", ["<html>", "[]", "null", "{}", '{"data": []}', '{"data": 5}', '"models"']
)
async def test_garbled_model_listing_is_unhealthy(
    client: LLMClient, stub: LLMStub, body: str
) -> None:
    stub.models_reply = Reply(status=200, body=body)

    assert await client.healthy() is False
    assert client.backing_off


async def test_connection_refused_is_unavailable(clock: FakeClock) -> None:
    async with LLMClient(settings_for(closed_port_url()), clock=clock) as llm:
        assert await llm.healthy() is False
        clock.advance(5.0)
        with pytest.raises(LLMUnavailableError, match="connection failed"):
            await ask(llm)


async def test_non_json_body_is_unavailable(client: LLMClient, stub: LLMStub) -> None:
    stub.script(Reply(status=200, body="<html>LM Studio UI</html>"))

    with pytest.raises(LLMUnavailableError):
        await ask(client)


# -- misuse and secrets -------------------------------------------------------


async def test_use_before_start_is_a_runtime_error(stub: LLMStub) -> None:
    llm = LLMClient(settings_for(stub.base_url))
    with pytest.raises(RuntimeError, match="start"):
        await llm.healthy()
    with pytest.raises(RuntimeError, match="start"):
        await ask(llm)
    await llm.close()  # closing an unstarted client is harmless
    assert stub.requests == []


async def test_logs_carry_neither_key_nor_prompt(
    client: LLMClient, stub: LLMStub, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="cognition.llm")
    stub.script(Reply.text("not json"), Reply.json({"x": 1}), Reply.error(500))

    await ask(client)
    with pytest.raises(LLMUnavailableError):
        await ask(client)

    assert "sk-test-secret-value" not in caplog.text
    for record in caplog.records:
        if record.levelno >= logging.INFO:
            assert USER not in record.getMessage()
            assert SYSTEM not in record.getMessage()


# -- a storm of faults ----------------------------------------------------------


def _fault(rng: random.Random) -> Reply:
    kind = rng.randrange(8)
    if kind == 0:
        return Reply.text('{"decision": "act", "confidence": ')
    if kind == 1:
        return Reply.json({"decision": "sometimes", "confidence": 7})
    if kind == 2:
        return Reply.json([1, 2, 3])
    if kind == 3:
        return Reply.error(rng.choice([500, 502, 503, 429]))
    if kind == 4:
        return Reply.text("")
    if kind == 5:
        return Reply(status=200, body=rng.choice(["{}", "[]", "null", "<html>", '{"choices": 1}']))
    if kind == 6:
        return Reply.text("[" * 5000)
    return Reply.json(GOOD)


async def test_a_thousand_faults_crash_nothing(stub: LLMStub, clock: FakeClock) -> None:
    rng = random.Random(20240611)
    stub.default = lambda _request: _fault(rng)  # every request draws a fault
    outcomes = {"value": 0, "no value": 0, "unavailable": 0}
    settings = settings_for(stub.base_url, timeout_s=1.0)
    async with LLMClient(settings, clock=clock) as llm:
        while len(stub.chat_requests) < 1000:
            try:
                reply = await ask(llm)
            except LLMUnavailableError:
                outcomes["unavailable"] += 1
                clock.advance(1000.0)  # past any backoff, so every call reaches the stub
            else:
                assert isinstance(reply, LLMReply)
                assert reply.attempts in (1, 2)
                if reply.value is None:
                    assert reply.error
                    outcomes["no value"] += 1
                else:
                    assert isinstance(reply.value, Decision) and reply.error is None
                    outcomes["value"] += 1

    assert all(count > 50 for count in outcomes.values()), outcomes
