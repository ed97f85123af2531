"""bench.transfer's arms and how one problem is asked in one of them.

Each arm is a system prompt (none, the bare one, or the learned principles) and
where its worked examples come from; :func:`ask_problem` asks a problem, checks
the code, and asks again a request the endpoint failed once it is back
(:mod:`bench.model_wait`): no task counts as failed that the model was not asked.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bench.model_wait import PATIENCE_S, ask_model
from bench.transfer_prompts import passes, plain_prompt, system_prompt, task_prompt
from bench.transfer_report import ARMS, TransferResult
from bench.transfer_strategies import StrategySet
from cognition.cases import CaseBank, worked_examples
from cognition.code_reply import extract_code
from cognition.llm import LLMClient
from graph.settings import Settings
from rsi.problems import Problem


@dataclass
class ArmRun:
    """One arm's setting: its system prompt (None: none at all) and where its cases come from."""

    name: str
    system: str | None
    cases: str = ""  # "", "similar" or "random"


def arm_runs(
    settings: Settings, strategies: StrategySet, arms: Sequence[str] = ARMS
) -> list[ArmRun]:
    """The arms named in ``arms`` (all five by default), in :data:`ARMS` order."""
    tokens = settings.rsi.max_strategy_tokens
    bare = system_prompt([], tokens)
    every = [
        ArmRun("plain", None),
        ArmRun("none", bare),
        ArmRun("cases", bare, "similar"),
        ArmRun("random cases", bare, "random"),
        ArmRun("principles", system_prompt(strategies.learned, tokens)),
    ]
    return [arm for arm in every if arm.name in arms]


async def examples_for(
    arm: ArmRun, task: Problem, bank: CaseBank | None, rng: random.Random, domain: str
) -> tuple[str, int]:
    if bank is None or not arm.cases:
        return "", 0
    if arm.cases == "similar":
        recalled = await bank.recall(task.spec, domain)
    else:
        recalled = await bank.random(domain, bank.settings.per_prompt, rng)
    text, ids = worked_examples(recalled.cases, bank.settings.max_tokens, bank.settings.field_chars)
    return text, len(ids)


Asked = dict[tuple[str | None, str], bool]
"""Outcomes by request (system prompt, user prompt): asked once per run."""


async def ask_problem(
    llm: LLMClient,
    arm: ArmRun,
    task: Problem,
    examples: str,
    result: TransferResult,
    asked: Asked,
    patience_s: float = PATIENCE_S,
) -> bool:
    """One problem in one arm: asked, its code checked; a failed request is asked again once
    the endpoint is back (:mod:`bench.model_wait`), never counted as the model's failure.

    At temperature 0 the same request gets the same answer, so an arm whose prompt
    is the very one an earlier arm sent for this problem (``cases`` when nothing was
    close enough, ``principles`` with none learned) takes that outcome (``reused``).
    """
    user = plain_prompt(task) if arm.system is None else task_prompt(task, examples)
    key = (arm.system, user)
    if key in asked:
        result.reused[arm.name] = result.reused.get(arm.name, 0) + 1
        return asked[key]
    outcome = await _asked(llm, arm, task, user, result, patience_s)
    asked[key] = outcome
    return outcome


async def _asked(
    llm: LLMClient,
    arm: ArmRun,
    task: Problem,
    user: str,
    result: TransferResult,
    patience_s: float,
) -> bool:
    def failed(_: Exception) -> None:  # reported: a figure whose requests failed says so
        result.errors[arm.name] = result.errors.get(arm.name, 0) + 1

    reply = await ask_model(
        llm,
        lambda: llm.complete_text(
            system=arm.system, user=user, step=f"transfer_{arm.name}", temperature=0.0
        ),
        patience_s=patience_s,
        on_retry=failed,
    )
    result.model = reply.model or result.model
    result.prompt_tokens[arm.name] = result.prompt_tokens.get(arm.name, 0) + reply.prompt_tokens
    if not extract_code(reply.text, signature=task.spec, entry_point=task.entry_point):
        result.unusable[arm.name] = result.unusable.get(arm.name, 0) + 1
        return False
    return await passes(task, reply.text)
