"""One shared LLMClient: requests one at a time, spaced, decisions before background work."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from cognition.llm import LLMClient
from cognition.llm_pacing import Priority, RequestPacer
from graph.settings import LLMSettings
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply


class Answer(BaseModel):
    ok: bool


@pytest.fixture
def stub() -> Iterator[LLMStub]:
    with LLMStub() as server:
        yield server


async def _until(condition: object, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


async def _ask(llm: LLMClient, step: str, priority: Priority) -> None:
    reply = await llm.complete_json(
        system="s", user="u", schema=Answer, step=step, priority=priority
    )
    assert reply.ok


async def test_a_decision_waits_for_at_most_the_one_request_in_flight(stub: LLMStub) -> None:
    # The first background request is slow; everything after answers at once.
    stub.script(Reply.json({"ok": True}, delay_s=0.5))
    stub.default = Reply.json({"ok": True})
    async with LLMClient(LLMSettings(base_url=stub.base_url)) as llm:
        first = asyncio.create_task(_ask(llm, "rsi-0", "background"))
        await _until(lambda: len(stub.chat_requests) == 1)
        queued = [asyncio.create_task(_ask(llm, f"rsi-{i}", "background")) for i in range(1, 5)]
        await _until(lambda: llm.waiting_requests == 4)
        decision = asyncio.create_task(_ask(llm, "OBSERVE", "decision"))
        await _until(lambda: llm.waiting_requests == 5)
        await asyncio.gather(first, decision, *queued)
    order = [r.step for r in stub.chat_requests]
    # In flight first, then the decision, then the background ones in the order they came.
    assert order == ["rsi-0", "OBSERVE", "rsi-1", "rsi-2", "rsi-3", "rsi-4"]


async def test_turns_start_at_least_min_interval_apart() -> None:
    pacer = RequestPacer(0.2)
    loop = asyncio.get_running_loop()
    starts: list[float] = []

    async def take(priority: Priority) -> None:
        async with pacer.turn(priority):
            starts.append(loop.time())

    busy = True

    async def hog() -> None:
        # A busy loop, as under load: each pass blocks 20 ms, so a granted turn's holder
        # runs again a pass after its grant. Spacing grants instead of starts would
        # then let the decision (taken when the loop is idle) start 20 ms early.
        while busy:
            time.sleep(0.02)
            await asyncio.sleep(0)

    hogging = asyncio.create_task(hog())
    await asyncio.gather(*(take("background") for _ in range(3)))
    busy = False
    await hogging
    await take("decision")  # after a pause, still spaced from the last start
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert len(gaps) == 3
    # asyncio may run a timer up to its clock's resolution early
    assert all(gap >= 0.2 - 0.001 for gap in gaps), gaps


async def test_the_client_spaces_its_requests(stub: LLMStub) -> None:
    arrivals: list[float] = []

    def answer(request: RecordedRequest) -> Reply:
        arrivals.append(time.monotonic())
        return Reply.json({"ok": True})

    stub.default = answer
    settings = LLMSettings(base_url=stub.base_url, min_interval_s=0.3)
    async with LLMClient(settings) as llm:
        await asyncio.gather(*(_ask(llm, f"s{i}", "background") for i in range(4)))
    # Arrival times carry the connection's jitter; the span cannot: 3 intervals at least.
    assert arrivals[-1] - arrivals[0] >= 0.85


async def test_without_an_interval_requests_go_back_to_back(stub: LLMStub) -> None:
    stub.default = Reply.json({"ok": True})
    async with LLMClient(LLMSettings(base_url=stub.base_url)) as llm:
        started = time.monotonic()
        await asyncio.gather(*(_ask(llm, f"s{i}", "background") for i in range(5)))
        elapsed = time.monotonic() - started
    assert len(stub.chat_requests) == 5
    assert elapsed < 2.0


async def test_a_cancelled_waiter_does_not_block_the_next() -> None:
    pacer = RequestPacer(0.0)
    held = asyncio.Event()
    release = asyncio.Event()
    order: list[str] = []

    async def take(name: str, priority: Priority, hold: bool = False) -> None:
        async with pacer.turn(priority):
            order.append(name)
            if hold:
                held.set()
                await release.wait()

    holder = asyncio.create_task(take("holder", "background", hold=True))
    await held.wait()
    doomed = asyncio.create_task(take("doomed", "decision"))
    after = asyncio.create_task(take("after", "background"))
    await _until(lambda: pacer.waiting == 2)
    doomed.cancel()
    release.set()
    await asyncio.gather(holder, after)
    with pytest.raises(asyncio.CancelledError):
        await doomed
    assert order == ["holder", "after"]
    assert pacer.waiting == 0


async def test_an_unknown_priority_is_refused() -> None:
    pacer = RequestPacer()
    with pytest.raises(ValueError, match="priority"):
        async with pacer.turn("urgent"):  # type: ignore[arg-type]
            pass
