"""Fixtures of the LLM reasoner tests: the stub answering each step well, a client, a reasoner.

The single-call tests keep a ``stub`` and ``client`` of their own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from cognition.deliberate import LLMReasoner
from cognition.llm import LLMClient
from tests.support.llm_reasoner import THRESHOLDS, Script, settings_for
from tests.support.llm_stub import LLMStub


@pytest.fixture
def stub() -> Iterator[LLMStub]:
    with LLMStub() as server:
        server.default = Script()
        yield server


@pytest.fixture
async def client(stub: LLMStub) -> AsyncIterator[LLMClient]:
    async with LLMClient(settings_for(stub.base_url)) as llm:
        yield llm


@pytest.fixture
def reasoner(client: LLMClient) -> LLMReasoner:
    return LLMReasoner(client, THRESHOLDS, deliberation="stepwise")
