"""Transfer (seed 003 H6): do the learned strategies help on problems never practised?

Runs the 20 held-out HumanEval problems (:data:`rsi.problems.HELD_OUT_IDS`)
against the configured OpenAI-compatible endpoint in three arms, each with
the constitution as system prompt and a different "Strategies" section:

- ``none``: no strategies;
- ``learned``: the agent's active heuristics of ``--domain`` (from its graph,
  or from a ``strategies.json`` Nous wrote);
- ``control``: as many strategies drawn from other domains, or, when there
  are not enough, the learned ones with their words shuffled.

Each reply's code runs against HumanEval's own ``check`` in practice's
sandbox (:mod:`rsi.sandbox`: one pytest test per assert, a confined child,
a timeout); a problem passes when every test does. It prints pass@1 per arm and the exact
McNemar test of learned vs none and learned vs control, with the model and
the strategy set's version::

    python -m bench.transfer --agent-id nous
    python -m bench.transfer --strategies .nous/strategies.json --base-url http://127.0.0.1:8080/v1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bench.common import connected
from bench.stats import mcnemar_exact
from bench.transfer_practice import bootstrap_strategies
from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient
from cognition.text import fence
from graph.models import Heuristic, new_id
from graph.settings import Settings, load_settings
from graph.store.heuristics import HeuristicStore
from graph.store.memory import Memory
from rsi.problems import HELD_OUT_IDS, Problem, human_eval
from rsi.sandbox import run_problem
from rsi.strategies import load_constitution, render_strategies, set_signature

ARMS = ("none", "learned", "control")
CHECK_TIMEOUT_S = 10.0


class Solution(BaseModel):
    """What the model must reply: the complete function."""

    code: str


@dataclass
class StrategySet:
    """The learned strategies, their control, and which version of the set they are."""

    learned: list[Heuristic]
    control: list[Heuristic]
    control_kind: str
    version: str


@dataclass
class TransferResult:
    """pass@1 per arm, the per-problem outcomes, and the two paired tests."""

    model: str
    base_url: str
    strategy_version: str
    strategies: int
    control_kind: str
    problems: list[str]
    passed: dict[str, list[bool]] = field(default_factory=dict)
    pass_at_1: dict[str, float] = field(default_factory=dict)
    mcnemar: dict[str, dict[str, float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    unusable: dict[str, int] = field(default_factory=dict)  # replies that held no code


def held_out_tasks(limit: int | None = None) -> list[Problem]:
    """The held-out problems (practice never draws them), in task order."""
    tasks = [p for p in human_eval() if p.source in HELD_OUT_IDS]
    return tasks[:limit] if limit else tasks


def strategies_from_file(path: Path, domain: str, seed: int) -> StrategySet:
    """The strategy set of a ``strategies.json`` Nous wrote."""
    document = json.loads(path.read_text(encoding="utf-8"))
    heuristics = [
        Heuristic(
            agent_id="file",
            id=str(h.get("id") or n),
            domain=str(h["domain"]),
            content=str(h["content"]),
            at=_aware(datetime.fromisoformat(h["added_at"])),
        )
        for n, h in enumerate(document.get("heuristics", []))
    ]
    return split_strategies(heuristics, domain, seed, version=f"v{document.get('version', '?')}")


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def split_strategies(
    heuristics: Sequence[Heuristic], domain: str, seed: int, *, version: str | None = None
) -> StrategySet:
    """The learned strategies of ``domain`` and a control of the same size."""
    learned = [h for h in heuristics if h.domain == domain]
    others = [h for h in heuristics if h.domain != domain]
    rng = random.Random(seed)
    if len(others) >= len(learned):
        control, kind = rng.sample(others, len(learned)), "other domains"
    else:
        control, kind = [_shuffled(h, rng) for h in learned], "shuffled words"
    return StrategySet(learned, control, kind, version or f"set {set_signature(heuristics)[:12]}")


def _shuffled(h: Heuristic, rng: random.Random) -> Heuristic:
    words = h.content.split()
    rng.shuffle(words)
    return h.model_copy(update={"content": " ".join(words)})


def system_prompt(strategies: Sequence[Heuristic], max_tokens: int) -> str:
    """The constitution and the arm's strategies, as the agent's requests carry them."""
    rendered = render_strategies(list(strategies), max_tokens)
    return f"{load_constitution().text}\n\n{rendered.text}\n"


def task_prompt(task: Problem) -> str:
    """The user message for one problem."""
    return (
        f"{fence(task.spec, 'a Python function to complete')}\n\n"
        f"Write the complete Python function `{task.entry_point}` (its signature, body and any "
        "imports it needs) so that it does what the docstring says.\n"
        'Reply with one JSON object: {"code": "<the complete function>"}'
    )


def solution_module(task: Problem, code: str) -> str:
    """The reply as the module the tests import: fences dropped, the signature supplied."""
    body = code.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("python").strip()
    if f"def {task.entry_point}" not in body:
        body = task.spec + body  # a body without its signature, as HumanEval completions are
    return body + "\n"


async def passes(task: Problem, code: str, timeout_s: float = CHECK_TIMEOUT_S) -> bool:
    """Whether ``code`` passes every one of the task's tests in the practice sandbox."""
    result = await run_problem(task, solution_module(task, code), timeout_s=timeout_s)
    return result.success


async def run_transfer(
    llm: LLMClient, settings: Settings, strategies: StrategySet, tasks: Sequence[Problem]
) -> TransferResult:
    """Ask every task in every arm and check each answer."""
    arms = {"none": [], "learned": strategies.learned, "control": strategies.control}
    result = TransferResult(
        model=settings.llm.model,
        base_url=settings.llm.base_url,
        strategy_version=strategies.version,
        strategies=len(strategies.learned),
        control_kind=strategies.control_kind,
        problems=[t.source for t in tasks],
    )
    for arm in ARMS:
        system = system_prompt(arms[arm], settings.rsi.max_strategy_tokens)
        outcomes = []
        for task in tasks:
            try:
                reply = await llm.complete_json(
                    system=system,
                    user=task_prompt(task),
                    schema=Solution,
                    step=f"transfer_{arm}",
                    temperature=0.0,
                )
            except LLMUnavailableError:
                # Counted as a failure, and reported: a figure with errors says so.
                result.errors[arm] = result.errors.get(arm, 0) + 1
                outcomes.append(False)
                continue
            result.model = reply.model or result.model
            if reply.value is None:
                result.unusable[arm] = result.unusable.get(arm, 0) + 1
            outcomes.append(reply.value is not None and await passes(task, reply.value.code))
        result.passed[arm] = outcomes
        result.pass_at_1[arm] = round(sum(outcomes) / len(outcomes), 4) if outcomes else 0.0
    for other in ("none", "control"):
        test = mcnemar_exact(result.passed["learned"], result.passed[other])
        result.mcnemar[f"learned_vs_{other}"] = {
            "learned_only": test.only_a,
            f"{other}_only": test.only_b,
            "p_value": test.p_value,
        }
    return result


def format_result(result: TransferResult) -> str:
    """The figures as text."""
    n = len(result.problems)
    lines = [
        f"transfer on {n} held-out HumanEval problems; model {result.model} at {result.base_url}",
        f"strategies: {result.strategies} learned ({result.strategy_version}); "
        f"control: {result.control_kind}",
    ]
    for arm in ARMS:
        passed = sum(result.passed[arm])
        errors, unusable = result.errors.get(arm, 0), result.unusable.get(arm, 0)
        note = f"; {errors} requests failed, counted as failures" if errors else ""
        note += f"; {unusable} replies held no usable code" if unusable else ""
        lines.append(f"  pass@1 {arm:<8} {result.pass_at_1[arm]:.3f} ({passed}/{n}){note}")
    for name, test in result.mcnemar.items():
        counts = ", ".join(f"{k} {int(v)}" for k, v in test.items() if k != "p_value")
        lines.append(f"  McNemar {name}: {counts}, exact p = {test['p_value']:.4g}")
    return "\n".join(lines)


async def _strategies(args: argparse.Namespace, settings: Settings, llm: LLMClient) -> StrategySet:
    if args.strategies is not None:
        return strategies_from_file(args.strategies, args.domain, args.seed)
    async with connected(settings) as (_, driver):
        if args.bootstrap_practice:
            memory = Memory(driver, f"bench-transfer-{new_id().lower()}")
            try:
                active = await bootstrap_strategies(memory, llm, settings, args.bootstrap_practice)
            finally:
                await memory.forget()
            version = f"crystallised now from {args.bootstrap_practice} practice trajectories"
            return split_strategies(active, "code", args.seed, version=version)
        active = await HeuristicStore(Memory(driver, settings.agent_id)).active()
    return split_strategies(active, args.domain, args.seed, version=_file_version(settings, active))


def _file_version(settings: Settings, active: Sequence[Heuristic]) -> str | None:
    """The version ``.nous/strategies.json`` gives this very set, if the file lists it."""
    path = settings.watch.root.expanduser().resolve() / ".nous" / "strategies.json"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        listed = {str(h["id"]) for h in document["heuristics"]}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return f"v{document.get('version', '?')}" if listed == {h.id for h in active} else None


async def _main(args: argparse.Namespace) -> int:
    overrides: dict[str, Any] = {}
    if args.agent_id:
        overrides["agent_id"] = args.agent_id
    if args.base_url:
        overrides["llm.base_url"] = args.base_url
    if args.model:
        overrides["llm.model"] = args.model
    if args.bootstrap_practice and args.domain != "code":
        print("bench.transfer: --bootstrap-practice makes code strategies only", file=sys.stderr)
        return 2
    settings = load_settings(args.config, overrides=overrides)
    async with LLMClient(settings.llm) as llm:
        strategies = await _strategies(args, settings, llm)
        for h in strategies.learned:
            print(f"learned [{h.domain}] {h.content}", file=sys.stderr)
        result = await run_transfer(llm, settings, strategies, held_out_tasks(args.limit))
    print(json.dumps(asdict(result), indent=2) if args.json else format_result(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the transfer benchmark from the command line."""
    parser = argparse.ArgumentParser(prog="python -m bench.transfer", description=__doc__)
    parser.add_argument("--config", type=Path, help="settings file (default: nous.yaml, if any)")
    parser.add_argument("--agent-id", help="whose learned strategies (default: agent_id)")
    parser.add_argument("--strategies", type=Path, help="a strategies.json instead of the graph")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint (default: llm.base_url)")
    parser.add_argument("--model", help="model name (default: llm.model)")
    parser.add_argument("--domain", default="code", help="the learned strategies' domain (code)")
    parser.add_argument("--seed", type=int, default=3, help="seed of the control's draw (3)")
    parser.add_argument("--limit", type=int, help="only the first N held-out problems")
    parser.add_argument(
        "--bootstrap-practice",
        type=int,
        metavar="N",
        help="no agent's strategies: crystallise them now from N practice trajectories",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    return asyncio.run(_main(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
