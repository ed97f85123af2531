"""LLMClient's view of its endpoint: the state it reports, unavailability and backoff."""

from __future__ import annotations

import time

import pytest

from cognition.errors import CognitionError, LLMTimeoutError, LLMUnavailableError
from cognition.llm import LLMClient
from tests.support.llm_client import GOOD, FakeClock, ask, closed_port_url, settings_for
from tests.support.llm_stub import LLMStub, Reply

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
