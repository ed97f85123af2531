"""LLMClient with a slow or broken endpoint: sized timeouts, busy checks, bad listings."""

from __future__ import annotations

import asyncio
import time

import pytest

from cognition.errors import LLMBusyError, LLMTimeoutError, LLMUnavailableError
from cognition.llm import LLMClient
from cognition.llm_pacing import request_timeout
from tests.support.llm_client import (
    GOOD,
    SYSTEM,
    USER,
    Decision,
    FakeClock,
    ask,
    closed_port_url,
    settings_for,
)
from tests.support.llm_stub import LLMStub, Reply

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
