"""Step 6 of the cycle: practice code and math by tests (seed 003 T1-T7).

Problems come from HumanEval (people's tests, T1), chosen by relevance to the
desire and never from the held-out split, or are written by the model and
checked with ``ast.parse`` only, up to three tries, unlike the last 20 (T3,
T5). A bootstrap desire names its pool problem. The solution runs in
:mod:`rsi.sandbox`; when the tests fail it gets one more try with the failure
fenced as data (T7). Problems and solutions are asked for as fenced code blocks,
as a model writes code (:mod:`cognition.code_reply`), never inside JSON. The
reply names the shown strategies it applied on an ``Applied:`` line; the
trajectory keeps those (only ids the prompt showed), so its outcome credits them.
"""

from __future__ import annotations

import ast
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cognition.carried import applied_strategies
from cognition.cases import CaseBank, worked_examples
from cognition.code_reply import applied_line, code_blocks, extract_code
from cognition.llm import LLMClient
from graph.models import Desire, Trajectory
from rsi import problems
from rsi.errors import RSIError
from rsi.prompts import problem_prompt, solution_prompt
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
    """Problems practiced recently (T5): HumanEval ids and fingerprints of generated specs."""

    sources: frozenset[str]
    fingerprints: frozenset[str]
    specs: tuple[str, ...]


class TestPractice:
    """Practice by tests in the sandbox, for the ``code`` and ``math`` domains."""

    def __init__(
        self,
        llm: LLMClient,
        *,
        timeout_s: float,
        root: Path | None,
        system: str,
        shown: Sequence[str] = (),
        held_out: frozenset[str] = problems.HELD_OUT_IDS,
        cases: CaseBank | None = None,
    ) -> None:
        self.llm = llm
        self.timeout_s = timeout_s
        self.root = root
        self.system = system
        self.shown = tuple(shown)
        self.held_out = held_out
        self.cases = cases

    async def choose(self, desire: Desire, level: str, recent: Recent) -> problems.Problem | None:
        """The desire's own pool problem, a relevant one, else one the model writes (or None)."""
        if desire.problem_source:
            if desire.problem_source in self.held_out:
                raise RSIError(f"{desire.problem_source} is held out: never practiced")
            return problems.by_id(desire.problem_source)
        best, overlap = problems.most_relevant(
            desire.description,
            exclude=recent.sources,
            level=level,
            pool=problems.practice_pool(self.held_out),
        )
        if best is not None and overlap >= MIN_OVERLAP:
            return best
        for attempt in range(1, GENERATION_TRIES + 1):
            reply = await self.llm.complete_text(
                system=self.system,
                user=problem_prompt(desire.description, level, list(recent.specs[:5])),
                step="rsi.problem",
            )
            candidate = generated_problem(reply.text)
            if candidate is not None and candidate.fingerprint not in recent.fingerprints:
                return candidate
            log.info("generated problem %d of %d not usable", attempt, GENERATION_TRIES)
        return None

    async def practice(
        self, desire: Desire, domain: str, level: str, recent: Recent
    ) -> Trajectory | None:
        """Choose a problem, solve it (twice at most), and describe the attempt.

        With a case bank, the most similar verified cases are shown before the
        problem as worked examples, fenced as data; the trajectory names them
        (``cases_shown``) so its outcome credits them.
        """
        started = time.perf_counter()
        problem = await self.choose(desire, level, recent)
        if problem is None:
            return None
        examples, shown_cases = await self._examples(problem, domain)
        attempt = Attempt()
        for attempt.count in range(1, SOLUTION_TRIES + 1):
            if await self._attempt(problem, attempt, examples):
                break
        result = attempt.result
        return Trajectory(
            agent_id=desire.agent_id,
            desire_id=desire.id,
            domain=domain,
            problem=problem.spec,
            problem_source=problem.source,
            problem_hash=problem.fingerprint,
            solution=attempt.code,
            approach=_approach(attempt.code),
            success=result is not None and result.success,
            partial_score=result.partial_score if result else 0.0,
            tests_passed=result.tests_passed if result else 0,
            tests_total=result.tests_total if result else 0,
            difficulty=level,
            duration_s=round(time.perf_counter() - started, 3),
            attempts=attempt.count,
            error=None if result is not None and result.success else attempt.failure,
            applied=attempt.applied if result is not None else [],
            failed_attempt=attempt.failed_code,
            failed_error=attempt.first_failure,
            cases_shown=shown_cases,
        )

    async def _examples(self, problem: problems.Problem, domain: str) -> tuple[str, list[str]]:
        """The worked examples for ``problem`` and the ids of the cases they show."""
        if self.cases is None:
            return "", []
        recalled = await self.cases.recall(problem.spec, domain)
        settings = self.cases.settings
        return worked_examples(recalled.cases, settings.max_tokens, settings.field_chars)

    async def _attempt(self, problem: problems.Problem, attempt: Attempt, examples: str) -> bool:
        """One solution asked for and tested; ``attempt`` keeps what happened. True on a pass."""
        reply = await self.llm.complete_text(
            system=self.system,
            user=solution_prompt(
                problem.spec, problem.entry_point, attempt.failure, self.shown, examples
            ),
            step="rsi.solve",
        )
        code = extract_code(reply.text, signature=problem.spec, entry_point=problem.entry_point)
        if not code:
            attempt.failed(
                f"the reply held no code block{f': {reply.error}' if reply.error else ''}"
            )
            return False
        previous = attempt.code
        attempt.code = code
        # The attempt whose tests decide the outcome names what the outcome credits.
        attempt.applied = applied_strategies(applied_line(reply.text), self.shown)
        attempt.result = await run_problem(
            problem, problem.module(code), timeout_s=self.timeout_s, root=self.root
        )
        if attempt.result.success:
            return True
        attempt.failed(_describe_failure(attempt.result), previous or code)
        return False


@dataclass
class Attempt:
    """What the tries at one problem did: the last code, its result, the first failure."""

    count: int = 0
    code: str = ""
    applied: list[str] = field(default_factory=list)
    result: SandboxResult | None = None
    failure: str | None = None
    failed_code: str = ""
    first_failure: str = ""

    def failed(self, why: str, code: str = "") -> None:
        """Record a failed try: its reason is shown on the retry; the first one is kept."""
        self.failure = why
        if not self.first_failure:
            self.failed_code, self.first_failure = code, why


def generated_problem(reply: str) -> problems.Problem | None:
    """A model-written problem from its two code blocks (stub, then tests); else None (T3).

    The stub must define a function (its name is the entry point); the tests must
    parse and define a ``test_`` function.
    """
    blocks = code_blocks(reply)
    tests = next((b for b in blocks if "def test" in b), None)
    stub = next((b for b in blocks if b is not tests and "def " in b), None)
    if tests is None or stub is None:
        return None
    try:
        definitions = [n for n in ast.parse(stub).body if isinstance(n, ast.FunctionDef)]
    except SyntaxError:
        return None
    if not definitions:
        return None
    return _generated(stub.strip() + "\n", definitions[0].name, tests)


def _generated(spec: str, entry_point: str, tests: str) -> problems.Problem | None:
    """A model-written problem whose tests parse and define a test (T3); else None."""
    if "from solution import" not in tests:
        tests = "from solution import *  # noqa: F403\n" + tests
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return None
    if not any(isinstance(n, ast.FunctionDef) and n.name.startswith("test") for n in tree.body):
        return None
    return problems.Problem("generated", spec, entry_point, given_tests=tests)


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
