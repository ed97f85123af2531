"""Practice for the ``logic`` domain: the same question, asked several times (seed 003 A3).

Without tests to run, consistency is the check: the model writes a question
with a short answer and is asked it ``rsi.consistency_runs`` times; the
attempt succeeds when every answer agrees. The shown strategies any answer
said it applied share the attempt's outcome.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Sequence

from cognition.carried import applied_strategies
from cognition.llm import LLMClient
from cognition.text import plain_text
from graph.models import Desire, Trajectory
from rsi.prompts import AnswerReply, QuestionReply, answer_prompt, question_prompt

_NOT_WORD = re.compile(r"[^a-z0-9.\-]+")


def normalise_answer(answer: str) -> str:
    """An answer reduced for comparison: lower case, words and numbers only."""
    return _NOT_WORD.sub(" ", answer.lower()).strip(" .")


class ConsistencyPractice:
    """Ask one question ``runs`` times; consistent answers count as success."""

    def __init__(
        self, llm: LLMClient, *, runs: int, system: str, shown: Sequence[str] = ()
    ) -> None:
        self.llm = llm
        self.runs = runs
        self.system = system
        self.shown = tuple(shown)

    async def practice(self, desire: Desire, level: str) -> Trajectory | None:
        """One consistency check; None when no usable question came back."""
        started = time.perf_counter()
        asked = await self.llm.complete_json(
            system=self.system,
            user=question_prompt(desire.description),
            schema=QuestionReply,
            step="rsi.question",
        )
        if asked.value is None:
            return None
        question = plain_text(asked.value.question, 2000, single_line=False)
        answers: list[str] = []
        named: list[str] = []
        reasoning = ""
        for _ in range(self.runs):
            reply = await self.llm.complete_json(
                system=self.system,
                user=answer_prompt(question, self.shown),
                schema=AnswerReply,
                step="rsi.answer",
            )
            answers.append(normalise_answer(reply.value.answer) if reply.value else "")
            named += reply.value.applied_strategies if reply.value else []
            if reply.value and not reasoning:
                reasoning = reply.value.reasoning
        common, count = Counter(answers).most_common(1)[0]
        success = bool(common) and count == self.runs
        return Trajectory(
            agent_id=desire.agent_id,
            desire_id=desire.id,
            domain="logic",
            problem=question,
            problem_source="generated",
            solution=common,
            approach=f"multi-run-consistency: {plain_text(reasoning, 200)}",
            success=success,
            partial_score=count / self.runs if common else 0.0,
            tests_passed=count if common else 0,
            tests_total=self.runs,
            difficulty=level,
            duration_s=round(time.perf_counter() - started, 3),
            attempts=self.runs,
            error=None if success else f"answers disagreed: {sorted(set(answers))}",
            applied=applied_strategies(named, self.shown),
        )
