"""RSI test helpers: experience in the graph, the LLM stub answering as a model would."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import SecretStr

from cognition.llm import LLMClient
from graph.models import ActionTarget, Decision, DecisionType, Execution
from graph.server.finder import Neo4jEndpoint
from graph.settings import LLMSettings
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory
from rsi import problems
from tests.support.graph_checks import GraphChecks, open_checks
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply


@dataclass
class Experience:
    """What the seeded agent went through: three timeouts of one template on one folder."""

    decision_ids: list[str]
    failed_execution_ids: list[str]


async def seed_failures(memory: Memory, count: int = 3) -> Experience:
    """``count`` decisions about ``src/*.py``, each with a failed ``fix_tests`` execution."""
    store = DecisionStore(memory)
    decisions, executions = [], []
    for n in range(count):
        decision = Decision(
            agent_id=memory.agent_id,
            type=DecisionType.ACT,
            confidence=0.9,
            template="fix_tests",
            path=f"src/module_{n}.py",
            path_pattern="src/*.py",
        )
        await store.record_decision(decision, [], observation_ids=[])
        execution = Execution(
            agent_id=memory.agent_id,
            decision_id=decision.id,
            target=ActionTarget.CLAUDE_CODE,
            template="fix_tests",
        )
        execution_id = await store.start_execution(execution)
        await store.finish_execution(
            execution_id, success=False, failure_type="timeout", error="timed out after 600 s"
        )
        await store.settle(decision.id, outcome="timed out", outcome_success=False)
        decisions.append(decision.id)
        executions.append(execution_id)
    return Experience(decisions, executions)


def user_text(request: RecordedRequest) -> str:
    """The user message of a chat request."""
    return str(request.messages[-1].get("content", ""))


def entry_point_in(text: str) -> problems.Problem:
    """The problem whose entry point the solution prompt names (HumanEval's, or a stand-in)."""
    match = re.search(r"defines `([A-Za-z_][A-Za-z0-9_]*)`", text)
    assert match, text
    named = [p for p in problems.human_eval() if p.entry_point == match.group(1)]
    # Some entry points name two problems (sort_array, solve): the quoted spec tells them apart.
    known = [p for p in named if p.spec.strip()[-200:] in text] or named
    return known[0] if known else problems.Problem("generated", text, match.group(1))


@dataclass
class ModelScript:
    """How the stub answers, step by step (the ``X-Nous-Step`` header)."""

    desires: list[Any] = field(default_factory=list)
    specific_words: tuple[str, ...] = ("threshold",)
    solve: Callable[[problems.Problem], str] = lambda p: p.canonical_solution
    question: str = "If all bloops are razzies and all razzies are lazzies, are bloops lazzies?"
    answers: list[str] = field(default_factory=lambda: ["Yes"])
    written: list[dict[str, Any]] = field(default_factory=list)
    # The strategy ids a solution says it applied (any text: the practice keeps shown ones).
    applied: list[str] = field(default_factory=list)

    def __call__(self, request: RecordedRequest) -> Reply:
        step, text = request.step, user_text(request)
        if step == "rsi.reflect":
            return Reply.json({"desires": self.desires, "summary": "reflected"})
        if step == "rsi.specificity":
            specific = any(w in text for w in self.specific_words)
            return Reply.json({"specificity": 0.9 if specific else 0.1})
        if step in ("rsi.solve", "rsi.trial"):
            # As a model writes code: prose, a fenced block, more prose, the Applied line.
            problem = entry_point_in(text)
            applied = f"\nApplied: {', '.join(self.applied) or 'none'}" if self.applied else ""
            return Reply.text(
                f"Here is my solution.\n```python\n{self.solve(problem)}```\n"
                f"It works by the book.{applied}"
            )
        if step == "rsi.problem" and self.written:
            return Reply.text(written_problem(self.written.pop(0)))
        if step == "rsi.question":
            return Reply.json({"question": self.question})
        if step == "rsi.answer":
            answer = self.answers[0] if len(self.answers) == 1 else self.answers.pop(0)
            reply = {"answer": answer, "reasoning": "transitivity"}
            return Reply.json({**reply, "applied_strategies": self.applied})
        return Reply.error(500, f"no script for step {step}")


def written_problem(problem: dict[str, Any]) -> str:
    """A generated problem as a model writes it: the stub's block, then the tests' block."""
    stub = problem.get("stub") or (
        f'def {problem["entry_point"]}(*args):\n    """{problem["spec"]}"""\n    ...\n'
    )
    return f"A problem:\n```python\n{stub}```\nTests:\n```python\n{problem['tests']}```\n"


def wrong_solution(problem: problems.Problem) -> str:
    """A solution that defines the function but answers None."""
    return f"def {problem.entry_point}(*args, **kwargs):\n    return None\n"


@pytest.fixture
def stub() -> Iterator[LLMStub]:
    with LLMStub() as server:
        yield server


@pytest.fixture
async def llm(stub: LLMStub) -> AsyncIterator[LLMClient]:
    settings = LLMSettings(
        base_url=stub.base_url,
        model="test-model",
        api_key=SecretStr("sk-test"),
        timeout_s=5.0,
        health_backoff_s=[0.0],
    )
    async with LLMClient(settings) as client:
        yield client


@pytest.fixture
async def checks(neo4j_endpoint: Neo4jEndpoint, agent_id: str) -> AsyncIterator[GraphChecks]:
    async with open_checks(neo4j_endpoint, agent_id) as instance:
        yield instance


def loads(value: Any) -> Any:
    """A JSON property decoded (events keep their data as a JSON string)."""
    return json.loads(value) if isinstance(value, str) else value
