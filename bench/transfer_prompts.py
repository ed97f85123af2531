"""bench.transfer's requests and checks: the prompts of each arm, a reply made a module, and
the verdict of the practice sandbox."""

from __future__ import annotations

from collections.abc import Sequence

from cognition.code_reply import extract_code
from cognition.text import fence
from graph.models import Heuristic
from rsi.problems import Problem
from rsi.sandbox import run_problem
from rsi.strategies import carried_prompt

CHECK_TIMEOUT_S = 10.0


def system_prompt(strategies: Sequence[Heuristic], max_tokens: int) -> str:
    """The constitution and the arm's strategies, as the agent's requests carry them."""
    return carried_prompt(strategies, max_tokens).text


def plain_prompt(task: Problem) -> str:
    """The problem in a model's own plain form: the stub in a code block, nothing else."""
    return f"Complete the following Python function:\n```python\n{task.spec.rstrip()}\n```"


def task_prompt(task: Problem, examples: str = "") -> str:
    """The user message for one problem, worked examples (already fenced) first."""
    shown = f"{examples}\n\n" if examples else ""
    return (
        f"{shown}{fence(task.spec, 'a Python function to complete')}\n\n"
        f"Write the complete Python function `{task.entry_point}` (its signature, body and any "
        "imports it needs) so that it does what the docstring says. Reply with the code in one "
        "```python block."
    )


def solution_module(task: Problem, reply: str) -> str:
    """The reply as the module the tests import: the longest code block, a bare body completed
    with the signature, after the problem's prompt (its imports and helpers)."""
    code = extract_code(reply, signature=task.spec, entry_point=task.entry_point)
    if f"def {task.entry_point}" not in code:
        return task.spec + _indented(code)  # a body without its signature, as HumanEval's are
    return task.module(code)


def _indented(code: str) -> str:
    lines = code.splitlines()
    if lines and not lines[0].startswith((" ", "\t")):
        return "".join(f"    {line}\n" for line in lines)
    return code


async def passes(task: Problem, reply: str, timeout_s: float = CHECK_TIMEOUT_S) -> bool:
    """Whether the reply's code passes every one of the task's tests in the practice sandbox."""
    if not extract_code(reply, signature=task.spec, entry_point=task.entry_point):
        return False
    result = await run_problem(task, solution_module(task, reply), timeout_s=timeout_s)
    return result.success
