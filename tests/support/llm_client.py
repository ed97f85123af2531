"""Helpers of the LLMClient tests: the question asked, its reply schema, a clock, settings."""

from __future__ import annotations

import socket
from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr

from cognition.llm import LLMClient, LLMReply
from graph.settings import LLMSettings

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


async def ask(llm: LLMClient, step: str = "deliberate") -> LLMReply[Decision]:
    return await llm.complete_json(system=SYSTEM, user=USER, schema=Decision, step=step)


def closed_port_url() -> str:
    # Bind then close: nothing listens there for the rest of the test.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
