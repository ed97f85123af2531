"""Step 6 of the cycle: practise code and math by tests (seed 003 T1-T7).

Problems come from HumanEval (people's tests, T1), chosen by relevance to the
desire and never from the held-out split, or are written by the model and
checked with ``ast.parse`` only, up to three tries, unlike the last 20 (T3,
T5). The solution runs in :mod:`rsi.sandbox`; when the tests fail it gets one
more try with the failure fenced as data (T7).
"""

from __future__ import annotations

import ast
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from cognition.llm import LLMClient
from graph.models import Desire, Trajectory
from rsi import problems
from rsi.prompts import ProblemReply, SolutionReply, problem_prompt, solution_prompt
from rsi.sandbox import SandboxResult, run_problem

log = logging.getLogger(__name__)

GENERATION_TRIES = 3
SOLUTION_TRIES = 2
RECENT_PROBLEMS = 20
# Shared content words a HumanEval problem needs to count as relevant to a desire.
MIN_OVERLAP = 2
_FAILURE_LIMIT = 1500


@dataclass(frozen=True)
class Recent:
    """Problems practised recently (T5): HumanEval ids and fingerprints of generated specs."""

    sources: frozenset[str]
    fingerprints: frozenset[str]
    specs: tuple[str, ...]


class TestPractice:
    """Practice by tests in the sandbox, for the ``code`` and ``math`` domains."""

    def __init__(self, llm: LLMClient, *, timeout_s: float, root: Path | None, system: str) -> None:
        self.llm = llm
        self.timeout_s = timeout_s
        self.root = root
        self.system = system

    async def choose(self, desire: Desire, level: str, recent: Recent) -> problems.Problem | None:
        """A relevant HumanEval problem, else one the model writes; None if none is valid."""
        best, overlap = problems.most_relevant(
            desire.description, exclude=recent.sources, level=level
        )
        if best is not None and overlap >= MIN_OVERLAP:
            return best
        for attempt in range(1, GENERATION_TRIES + 1):
            reply = await self.llm.complete_json(
                system=self.system,
                user=problem_prompt(desire.description, level, list(recent.specs[:5])),
                schema=ProblemReply,
                step="rsi.problem",
            )
            candidate = _generated(reply.value)
            if candidate is not None and candidate.fingerprint not in recent.fingerprints:
                return candidate
            log.info("generated problem %d of %d not usable", attempt, GENERATION_TRIES)
        return None

    async def practise(
        self, desire: Desire, domain: str, level: str, recent: Recent
    ) -> Trajectory | None:
        """Choose a problem, solve it (twice at most), and describe the attempt."""
        started = time.perf_counter()
        problem = await self.choose(desire, level, recent)
        if problem is None:
            return None
        failure: str | None = None
        result: SandboxResult | None = None
        code = approach = ""
        attempts = 0
        for attempts in range(1, SOLUTION_TRIES + 1):  # noqa: B007 (attempts is recorded)
            reply = await self.llm.complete_json(
                system=self.system,
                user=solution_prompt(problem.spec, problem.entry_point, failure),
                schema=SolutionReply,
                step="rsi.solve",
            )
            if reply.value is None:
                failure = f"the reply was not a usable solution: {reply.error}"
                continue
            code, approach = reply.value.code, reply.value.approach or _approach(reply.value.code)
            result = await run_problem(problem, code, timeout_s=self.timeout_s, root=self.root)
            if result.success:
                break
            failure = _describe_failure(result)
        return Trajectory(
            agent_id=desire.agent_id,
            desire_id=desire.id,
            domain=domain,
            problem=problem.spec,
            problem_source=problem.source,
            problem_hash=problem.fingerprint,
            solution=code,
            approach=approach,
            success=result is not None and result.success,
            partial_score=result.partial_score if result else 0.0,
            tests_passed=result.tests_passed if result else 0,
            tests_total=result.tests_total if result else 0,
            difficulty=level,
            duration_s=round(time.perf_counter() - started, 3),
            attempts=attempts,
            error=None if result is not None and result.success else failure,
        )


def _generated(reply: ProblemReply | None) -> problems.Problem | None:
    """A model-written problem whose tests parse and define a test (T3); else None."""
    if reply is None or not reply.entry_point.isidentifier():
        return None
    tests = reply.tests
    if "from solution import" not in tests:
        tests = "from solution import *  # noqa: F403\n" + tests
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return None
    if not any(isinstance(n, ast.FunctionDef) and n.name.startswith("test") for n in tree.body):
        return None
    return problems.Problem("generated", reply.spec, reply.entry_point, given_tests=tests)


def _approach(code: str) -> str:
    """Seed 003's fallback summary: the first ``def`` line, else the start of the code."""
    for line in code.splitlines():
        if line.strip().startswith("def "):
            return line.strip()
    return code[:200]


def _describe_failure(result: SandboxResult) -> str:
    head = f"{result.tests_passed} of {result.tests_total} tests passed" + (
        f"; {result.error}" if result.error else ""
    )
    return f"{head}\n{result.output[-_FAILURE_LIMIT:]}"
