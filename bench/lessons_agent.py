"""The bench.lessons agent: one task through Nous's chat API, as Claude Code's hooks drive it.

Per task: ``pre_turn`` with the task's prompt (its context carries the cases
and code notes recalled for it, fenced as data); up to :data:`ATTEMPTS`
requests, each reply's code run against the task's tests in practice's sandbox
and handed back as a ``run_tests`` tool result (its output the error when it
failed); ``post_turn`` with the response and every tool result;
``end_session``. ``run_tests`` is a verifying tool: a passing call is a
verified attempt (a case, ``worked`` code notes), a failing one is kept as
code notes and not censored. With ``learn=False`` the agent's memory is
frozen: no case or note is written or credited, no decision is opened (a task
prompt's frame opens one and learns from its outcome), and censors are filed
on a scratch agent that is forgotten at once.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

from bench.lessons_library import LessonTask, Library, lesson_problem, solution_module
from bench.lessons_trace import Shown, Trace, memory_block
from bench.model_wait import PATIENCE_S, ask_model
from cognition.chat.cases import SessionCases
from cognition.chat.code_notes import SessionNotes
from cognition.chat.layer import CognitiveLayer
from cognition.chat.turns import ToolResult, TurnResult
from cognition.code_reply import extract_code
from cognition.frames.engine import FrameEngine
from cognition.learn.learner import CensorBook
from cognition.llm import LLMClient
from cognition.text import fence
from graph.models import new_id
from graph.settings import Settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from rsi.sandbox import run_problem

ATTEMPTS = 3
# A passing run_tests call is a verified attempt: a case even when it passed at once.
VERIFYING = frozenset({"run_tests"})
CHECK_TIMEOUT_S = 10.0
# A first attempt is greedy (the figure compared across arms); a retry samples. At temperature
# 0 Qwen2.5-Coder-1.5B sent the very code that had just failed again on most retries (the
# lessons6 trace: attempts 2 and 3 of a practice task byte for byte alike), so practice, which
# only keeps what passed, learned from 16 of 40 tasks.
RETRY_TEMPERATURE = 0.7
# Even at 0.7 it did so on 49 of 65 practice retries (lessons8): code that already failed in
# the task is not run again (as Nous's censor gate denies a call that failed the same way);
# the model is asked again, hotter, at most this many times before the repeat runs anyway.
RESAMPLES = 2
RESAMPLE_TEMPERATURE = 1.0
OUTPUT_CHARS = 1500


@dataclass
class ArmOutcomes:
    """One arm on the held-out tasks: pass on the first attempt, pass within three, costs."""

    first: list[bool] = field(default_factory=list)
    within: list[bool] = field(default_factory=list)
    attempts: list[int] = field(default_factory=list)
    prompt_tokens: int = 0
    errors: int = 0
    """Requests the endpoint failed (down or timed out), each asked again once it was back."""
    # Replies that repeated code already failed in the task, asked again before running.
    resamples: int = 0

    @property
    def first_rate(self) -> float:
        """First-attempt pass rate."""
        return sum(self.first) / len(self.first) if self.first else 0.0

    @property
    def within_rate(self) -> float:
        """Pass rate within :data:`ATTEMPTS` attempts."""
        return sum(self.within) / len(self.within) if self.within else 0.0

    @property
    def attempts_per_task(self) -> float:
        """Attempts made per task (a pass stops a task)."""
        return sum(self.attempts) / len(self.attempts) if self.attempts else 0.0

    @property
    def tokens_per_attempt(self) -> float:
        """Prompt tokens per attempt, as the endpoint counted them."""
        made = sum(self.attempts)
        return self.prompt_tokens / made if made else 0.0


@contextlib.asynccontextmanager
async def fresh_memory(driver: GraphDriver, agent_id: str) -> AsyncIterator[Memory]:
    """A new agent's memory, forgotten afterwards."""
    memory = Memory(driver, agent_id)
    try:
        yield memory
    finally:
        await memory.forget()


def attempt_prompt(library: Library, task: LessonTask, code: str, output: str) -> str:
    """The user message of one attempt: the library's signatures, the task, the last failure."""
    retry = (
        f"\n\nYour previous attempt:\n{fence(code, 'your previous attempt')}\n"
        f"Its tests failed:\n{fence(output, 'test output')}\nFix it."
        if output
        else ""
    )
    return (
        f"{fence(library.signatures, f'the library {library.name}: names and signatures')}\n\n"
        f"{fence(task.prompt, 'the task')}\n\n"
        f"Write a Python module that does `import {library.name}` and defines "
        f"`{task.entry_point}`.{retry}\nReply with the code in one ```python block."
    )


class LessonAgent:
    """Solves lesson tasks through the chat API; one instance serves every arm of a run."""

    def __init__(
        self,
        llm: LLMClient,
        library: Library,
        settings: Settings,
        trace: Trace | None = None,
        *,
        patience_s: float = PATIENCE_S,
    ) -> None:
        """``patience_s``: how long a stalled model is waited for (:mod:`bench.model_wait`)."""
        self.llm = llm
        self.patience_s = patience_s
        self.library = library
        self.settings = settings
        self.trace = trace
        self.model = ""

    async def memoryless(
        self, driver: GraphDriver, tasks: Sequence[LessonTask], *, arm: str = "memoryless"
    ) -> ArmOutcomes:
        """Each task by a fresh agent: feedback within the task, nothing across tasks."""
        outcomes = ArmOutcomes()
        for task in tasks:
            async with fresh_memory(driver, f"bench-lessons-m-{new_id().lower()}") as memory:
                layer = self._layer(memory, learn=True, draw=None)
                await self._task(layer, task, outcomes, arm)
        return outcomes

    async def run(
        self,
        memory: Memory,
        tasks: Sequence[LessonTask],
        *,
        learn: bool,
        draw: random.Random | None = None,
        arm: str = "nous",
    ) -> ArmOutcomes:
        """The tasks in order by one agent; frozen unless ``learn``; ``draw``: random cases;
        ``arm``: the name the trace gives these attempts."""
        outcomes = ArmOutcomes()
        scratch = Memory(memory.driver, f"{memory.agent_id}-scratch")
        try:
            for task in tasks:
                layer = self._layer(memory, learn=learn, draw=draw, scratch=scratch)
                await self._task(layer, task, outcomes, arm)
        finally:
            await scratch.forget()
        return outcomes

    async def case_count(self, memory: Memory) -> int:
        """Active cases the agent holds."""
        return len(await memory.cases.active())

    def _layer(
        self,
        memory: Memory,
        *,
        learn: bool,
        draw: random.Random | None,
        scratch: Memory | None = None,
    ) -> CognitiveLayer:
        cases = SessionCases(
            memory, self.settings.cases, learn=learn, draw=draw, verifying=VERIFYING
        )
        notes = SessionNotes(
            memory, self.settings.code_notes, learn=learn, draw=draw, verifying=VERIFYING
        )
        # Frozen: censors are filed on a scratch agent, so no later prompt shows them.
        censors = None if learn or scratch is None else CensorBook(scratch.censors)
        return CognitiveLayer(
            memory,
            FrameEngine(memory),
            censors=censors,
            cases=cases,
            code_notes=notes,
            verifying=VERIFYING,
            decide=learn,  # frozen: no decision, so nothing learned from a task's outcome
        )

    async def _task(
        self, layer: CognitiveLayer, task: LessonTask, outcomes: ArmOutcomes, arm: str
    ) -> None:
        session = f"lessons-{new_id()}"
        context = await layer.pre_turn(session, task.prompt)
        shown = Shown(
            layer.cases.shown, layer.code_notes.shown, memory_block(context.system_prompt)
        )
        calls: list[ToolResult] = []
        code = output = ""
        passed = False
        failed: set[str] = set()
        for number in range(1, ATTEMPTS + 1):
            user = attempt_prompt(self.library, task, code, output)
            code = await self._reply(context.system_prompt, user, number, failed, outcomes)
            passed, output = await self._check(task, code)
            if not passed:
                failed.add(code)
            if self.trace is not None:
                self.trace.attempt(
                    arm=arm, task=task.id, number=number, shown=shown,
                    code=code, output=output, passed=passed,
                )  # fmt: skip
            arguments = {"file_path": f"{task.entry_point}.py", "code": code}
            calls.append(
                ToolResult(
                    tool_name="run_tests",
                    arguments=arguments,
                    result=output if passed else None,
                    error=None if passed else output,
                )
            )
            if passed:
                break
        outcomes.first.append(bool(calls) and calls[0].error is None)
        outcomes.within.append(passed)
        outcomes.attempts.append(len(calls))
        response = "All tests pass." if passed else "The tests still fail."
        await layer.post_turn(
            session, TurnResult(response_text=response, tool_results=calls), context
        )
        await layer.end_session(session)

    async def _reply(
        self, system: str, user: str, number: int, failed: set[str], outcomes: ArmOutcomes
    ) -> str:
        """One attempt's code: greedy first, sampled on a retry, and asked again (hotter, at
        most :data:`RESAMPLES` times) while it is code that already failed in this task."""
        code = await self._ask(system, user, 0.0 if number == 1 else RETRY_TEMPERATURE, outcomes)
        for _ in range(RESAMPLES):
            if code not in failed:
                break
            outcomes.resamples += 1
            code = await self._ask(system, user, RESAMPLE_TEMPERATURE, outcomes)
        return code

    async def _ask(self, system: str, user: str, temperature: float, outcomes: ArmOutcomes) -> str:
        """The model's code; a request the endpoint failed is asked again once it is back."""

        def failed(_: Exception) -> None:
            outcomes.errors += 1

        reply = await ask_model(
            self.llm,
            lambda: self.llm.complete_text(
                system=system, user=user, step="lessons", temperature=temperature
            ),
            patience_s=self.patience_s,
            on_retry=failed,
        )
        self.model = reply.model or self.model
        outcomes.prompt_tokens += reply.prompt_tokens
        return extract_code(reply.text)

    async def _check(self, task: LessonTask, code: str) -> tuple[bool, str]:
        """Whether the code passes every test, and the output the model reads back."""
        if not code:
            return False, "the reply held no ```python block"
        problem = lesson_problem(task, self.library.name)
        result = await run_problem(
            problem, solution_module(self.library, code), timeout_s=CHECK_TIMEOUT_S
        )
        summary = f"{result.tests_passed} of {result.tests_total} tests passed"
        if result.success:  # as a verbose test run says: each check that held
            held = "\n".join(f"passed line {n}: {test}" for n, test in enumerate(task.tests, 2))
            return True, f"{summary}\n{held}"[:OUTPUT_CHARS]
        detail = result.error or result.output
        return result.success, (f"{summary}\n{detail}" if detail else summary)[:OUTPUT_CHARS]
