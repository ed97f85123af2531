"""LLMClient misuse, secrets kept out of its logs, and a storm of faults."""

from __future__ import annotations

import logging
import random

import pytest

from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient, LLMReply
from tests.support.llm_client import GOOD, SYSTEM, USER, Decision, FakeClock, ask, settings_for
from tests.support.llm_stub import LLMStub, Reply

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
