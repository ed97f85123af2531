"""What self-improvement asks the model, and the shapes of the replies (seed 003 L2, L3).

Everything the model did not write itself (memory, problems, test output)
reaches it only through :func:`cognition.text.fence`. The system message is
not here: it is the constitution and strategies of :mod:`rsi.strategies`,
the same text the decision loop's requests carry (seed 003 A1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cognition.text import fence


class _Loose(BaseModel):
    # Models add fields of their own; they are ignored, not an error.
    model_config = ConfigDict(extra="ignore")


class ReflectionReply(_Loose):
    """A reflection: desires as strings or objects, under either name (seed 003 I1)."""

    desires: list[str | dict[str, Any]] = Field(default_factory=list)
    expressed_drives: list[str | dict[str, Any]] = Field(default_factory=list)
    source_ids: list[str] = Field(default_factory=list)
    summary: str = ""


class SpecificityReply(_Loose):
    """How specific a desire is, 0.0 (vague) to 1.0 (highly specific)."""

    specificity: float = Field(ge=0.0, le=1.0)


class QuestionReply(_Loose):
    """A reasoning question with one short, checkable answer."""

    question: str = Field(min_length=1)


class AnswerReply(_Loose):
    """An answer to a reasoning question: the short answer, the reasoning, strategies applied."""

    answer: str
    reasoning: str = ""
    applied_strategies: list[str] = Field(default_factory=list)


def _applied(strategy_ids: Sequence[str], what: str) -> tuple[str, str]:
    """The ask for the strategies applied, and its field in the reply shape (none if none shown)."""
    if not strategy_ids:
        return "", ""
    return (
        "\napplied_strategies: the ids of the strategies (listed under Strategies in the system "
        f"prompt, in square brackets) this {what} applies; an empty list if none fits.",
        ', "applied_strategies": ["<strategy id>"]',
    )


def _applied_line(strategy_ids: Sequence[str]) -> str:
    """The ask for an ``Applied:`` line after the code (nothing when no strategy is shown)."""
    if not strategy_ids:
        return ""
    return (
        "\nAfter the code block, write one last line `Applied: <ids>` naming the strategies "
        "(listed under Strategies in the system prompt, in square brackets) this solution "
        "applies, or `Applied: none`."
    )


def reflect_prompt(experience: str) -> str:
    """Ask for improvement desires that cite the ids of what they come from."""
    return (
        f"{fence(experience, 'your recent experience, one item per line, id first')}\n\n"
        "Reflect on this experience. What do you want to get better at? Reply as JSON: "
        '{"desires": [{"description": "...", "intensity": 0.0-1.0, "sources": ["<id>", ...]}],'
        ' "summary": "..."}. Each description names one specific skill; each desire cites the '
        "ids of the items above that made you want it."
    )


def specificity_prompt(description: str) -> str:
    """Seed 003 E3's scoring guide."""
    return (
        f"{fence(description, 'an improvement desire')}\n\n"
        "Rate the specificity of this improvement desire from 0.0 to 1.0.\n"
        '0.0-0.3: vague ("I want to improve"); 0.4-0.6: somewhat specific ("improve my '
        'coding"); 0.7-0.9: specific ("improve my Python debugging for async code"); 1.0: '
        'highly specific ("learn to use pytest fixtures for database mocking").\n'
        'Reply as JSON: {"specificity": <number>}.'
    )


def problem_prompt(description: str, difficulty: str, avoid: list[str]) -> str:
    """Ask for a relevant practice problem as code: a stub with its docstring, then tests.

    Code travels in fenced blocks, as a model writes it (issue 25), never in a JSON string.
    """
    seen = fence("\n".join(avoid), "problems practiced recently") if avoid else ""
    return (
        f"{fence(description, 'the skill to practice')}\n\n{seen}\n"
        f"Write a {difficulty} Python practice problem that directly exercises this skill, "
        "different from the recent ones. Reply with two ```python blocks: first the function's "
        "signature and a docstring saying what it must do (body `...`); then a pytest module "
        "that does `from solution import *` and has several test_ functions."
    )


def solution_prompt(
    spec: str,
    entry_point: str,
    failure: str | None,
    strategy_ids: Sequence[str] = (),
    examples: str = "",
) -> str:
    """Ask for a solution as a fenced code block; on the retry, with the failure as data (T7).

    ``examples`` (worked cases from memory, already fenced as data) go before the
    problem. With ``strategy_ids`` (the strategies the system prompt shows) the
    reply names those it applied on an ``Applied:`` line after the code.
    """
    retry = (
        f"\n\nYour previous solution failed:\n{fence(failure, 'test output')}\nFix it."
        if failure
        else ""
    )
    shown = f"{examples}\n\n" if examples else ""
    return (
        f"{shown}{fence(spec, 'the problem')}\n\n"
        f"Write a complete Python module that defines `{entry_point}` and solves the problem."
        f"{retry}\nReply with the code in one ```python block.{_applied_line(strategy_ids)}"
    )


def question_prompt(description: str) -> str:
    """Ask for a reasoning question with a short answer (logic practice)."""
    return (
        f"{fence(description, 'the skill to practice')}\n\n"
        "Write one logic or reasoning question that exercises this skill and has a single "
        'short answer (a word or a number). Reply as JSON: {"question": "..."}.'
    )


def answer_prompt(question: str, strategy_ids: Sequence[str] = ()) -> str:
    """Ask the question; asked several times to check consistency."""
    applied, shape = _applied(strategy_ids, "answer")
    return (
        f"{fence(question, 'the question')}\n\n"
        f"Answer it.{applied}\n"
        f'Reply as JSON: {{"answer": "the short answer", "reasoning": "..."{shape}}}.'
    )


# Crystallization's three questions (seed 003 C3, C4, C6). Trajectories hold model output and
# practice problems, so they are fenced as data; so are the principle under judgement and the
# heuristics it is compared with.


def principle_prompt(domain: str, trajectories: Sequence[str]) -> str:
    """Ask for one principle shared by the successful attempts (temperature 0.5)."""
    listing = "\n\n".join(f"Attempt {n}:\n{t}" for n, t in enumerate(trajectories, 1))
    return (
        f"These are successful practice attempts in the domain '{domain}'.\n\n"
        f"{fence(listing, 'successful practice attempts')}\n\n"
        "What one principle made these attempts succeed? State it as a single specific, "
        "actionable instruction (what to do, and when), in one sentence of at most 40 words. "
        "Do not restate a problem.\n\n"
        'Reply with one JSON object: {"principle": "<the instruction>"}'
    )


def case_principle_prompt(domain: str, cases: Sequence[str]) -> str:
    """Ask for the one lesson several verified cases share (temperature 0.5): each case is a
    failed attempt, the error it met, and what worked."""
    listing = "\n\n".join(cases)
    return (
        f"These are verified cases in the domain '{domain}': each is a task, an attempt that "
        "failed, the error it met, and what worked.\n\n"
        f"{fence(listing, 'verified cases')}\n\n"
        "What one lesson do these cases share? State it as a single specific, actionable "
        "instruction (what to do, and when), in one sentence of at most 40 words. Name the "
        "function or convention it is about. Do not restate a task.\n\n"
        'Reply with one JSON object: {"principle": "<the instruction>"}'
    )


def actionable_prompt(principle: str) -> str:
    """Seed 003 C6: is the principle specific and actionable? YES or NO."""
    return (
        f"{fence(principle, 'a proposed heuristic')}\n\n"
        "Is this heuristic specific and actionable? It is actionable if it tells you WHAT "
        "TO DO, not just what to think about.\n"
        'Good: "When debugging async code, add logging before and after each await"\n'
        'Bad: "Think carefully about async code"\n\n'
        'Reply with one JSON object: {"answer": "YES" | "NO"}'
    )


def duplicate_prompt(principle: str, existing: Sequence[str]) -> str:
    """Seed 003 C4's fallback: is the new heuristic the same as one already held?"""
    listing = "\n".join(f"{n}. {text}" for n, text in enumerate(existing, 1))
    return (
        f"{fence(principle, 'a new heuristic')}\n\n"
        f"{fence(listing, 'existing heuristics, numbered')}\n\n"
        "Is the new heuristic essentially the same as one of the existing ones?\n"
        'Reply with one JSON object: {"answer": "YES" | "NO", "same_as": <the number of '
        "the existing heuristic it repeats, or 0>}"
    )
