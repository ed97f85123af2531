"""Fixtures of the LLMClient tests: the scripted stub, a fake clock, a started client.

Test modules with a ``stub`` or ``client`` of their own (the deliberation and
pacing tests) keep theirs: a module's fixture wins over this one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from cognition.llm import LLMClient
from tests.support.llm_client import FakeClock, settings_for
from tests.support.llm_stub import LLMStub


@pytest.fixture
def stub() -> Iterator[LLMStub]:
    with LLMStub() as server:
        yield server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def client(stub: LLMStub, clock: FakeClock) -> AsyncIterator[LLMClient]:
    async with LLMClient(settings_for(stub.base_url), clock=clock) as llm:
        yield llm
