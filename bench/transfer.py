"""Transfer (seed 003 H6): does what Nous learned help on problems never practiced?

Runs the held-out HumanEval problems (the seed's 20, :data:`rsi.problems.HELD_OUT_IDS`,
or a larger split with ``--held-out N``, practice then drawing from the rest)
against the configured OpenAI-compatible endpoint, each problem asked for as
a fenced code block (issue 25: code inside JSON costs a small model more
than any strategy wins back), in five arms:

- ``plain``: the problem in the model's own plain form, no system prompt, so
  any handicap of Nous's prompts shows in the same run;
- ``none``: the constitution as system prompt, no strategies, no cases;
- ``cases``: as ``none``, with the agent's most similar verified cases shown
  as worked examples (:mod:`cognition.cases`; none when nothing is close);
- ``random cases``: as ``cases``, the same number of cases drawn at random
  from the same bank (the control of recall by similarity);
- ``principles``: the agent's active heuristics of ``--domain`` (from its
  graph, or from a ``strategies.json`` Nous wrote) in the system prompt.

Each reply's code (the longest fenced block, a bare body completed with the
signature) runs against HumanEval's own ``check`` in practice's sandbox
(:mod:`rsi.sandbox`); a problem passes when every test does. It prints pass@1
per arm and the exact McNemar test of every arm against ``none``, with the
model and the strategy set's version. The case bank is frozen while the arms
run. With ``--practice-cycles N`` a fresh agent first runs N real RSI cycles
with the model (:mod:`bench.transfer_practice`), and what it learned (each
heuristic, its trials, active or rejected; its cases) is measured::

    python -m bench.transfer --agent-id nous
    python -m bench.transfer --strategies .nous/strategies.json --base-url http://127.0.0.1:8080/v1
    python -m bench.transfer --practice-cycles 3 --llm-timeout 900
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from bench.common import arms_argument, connected, given_options, model_overrides
from bench.common import chosen_arms as common_arms
from bench.model_wait import PATIENCE_S, ModelStalled
from bench.stats import mcnemar_exact
from bench.transfer_arms import Asked, arm_runs, ask_problem, examples_for
from bench.transfer_practice import (
    Practice,
    bootstrap_strategies,
    format_practice,
    practice_cycles,
)
from bench.transfer_report import ARMS, TransferResult, client_errors, format_result
from bench.transfer_strategies import StrategySet, split_strategies, strategies_from_file
from cognition.cases import CaseBank
from cognition.llm import LLMClient
from graph.models import Heuristic, new_id
from graph.settings import Settings, load_settings
from graph.store.memory import Memory
from rsi.problems import HELD_OUT_IDS, Problem, held_out, human_eval


def held_out_tasks(limit: int | None = None, size: int = len(HELD_OUT_IDS)) -> list[Problem]:
    """The held-out split of ``size`` problems (practice never draws them), in task order."""
    split = held_out(size)
    tasks = [p for p in human_eval() if p.source in split]
    return tasks[:limit] if limit else tasks


def chosen_arms(text: str) -> tuple[str, ...]:
    """``--arms`` read: names from :data:`ARMS`, comma-separated; ``none`` always runs.
    Raises ValueError naming an unknown arm."""
    return common_arms(text, ARMS, "none")


async def run_transfer(
    llm: LLMClient,
    settings: Settings,
    strategies: StrategySet,
    tasks: Sequence[Problem],
    cases: CaseBank | None = None,
    *,
    seed: int = 3,
    domain: str = "code",
    arms: Sequence[str] = ARMS,
    patience_s: float = PATIENCE_S,
) -> TransferResult:
    """Ask every task in every arm (of ``arms``) and check each answer; the case bank is
    only read. A model that stops answering is waited for ``patience_s``, then
    :class:`~bench.model_wait.ModelStalled` stops the run."""
    result = TransferResult(
        model=settings.llm.model,
        base_url=settings.llm.base_url,
        strategy_version=strategies.version,
        strategies=len(strategies.learned),
        control_kind=strategies.control_kind,
        problems=[t.source for t in tasks],
        case_bank=len(await cases.store.active(domain)) if cases is not None else 0,
    )
    rng = random.Random(seed)
    asked: Asked = {}
    for arm in arm_runs(settings, strategies, arms):
        outcomes = []
        for task in tasks:
            examples, shown = await examples_for(arm, task, cases, rng, domain)
            result.cases_shown[arm.name] = result.cases_shown.get(arm.name, 0) + shown
            outcomes.append(await ask_problem(llm, arm, task, examples, result, asked, patience_s))
        result.passed[arm.name] = outcomes
        result.pass_at_1[arm.name] = round(sum(outcomes) / len(outcomes), 4) if outcomes else 0.0
        # A run with a small local model takes an hour or more: say each arm as it ends.
        print(
            f"bench.transfer: {arm.name}: {sum(outcomes)}/{len(outcomes)}",
            file=sys.stderr,
            flush=True,
        )
    for other in (arm for arm in ARMS if arm != "none" and arm in result.passed):
        test = mcnemar_exact(result.passed[other], result.passed["none"])
        result.mcnemar[f"{other} vs none"] = {
            f"{other} only": test.only_a,
            "none only": test.only_b,
            "p_value": test.p_value,
        }
    return result


async def _measure(
    args: argparse.Namespace, settings: Settings, llm: LLMClient
) -> tuple[TransferResult, Practice | None]:
    """What to measure (a file's strategies, a fresh agent's practice, or an agent's graph),
    then the arms; a practice agent is forgotten afterwards unless ``--keep-agent``."""
    tasks = held_out_tasks(args.limit, args.held_out)
    if args.strategies is not None:
        strategies = strategies_from_file(args.strategies, args.domain, args.seed)
        _print_learned(strategies, None, args.json)
        result = await run_transfer(
            llm,
            settings,
            strategies,
            tasks,
            seed=args.seed,
            arms=args.arms,
            patience_s=args.model_patience,
        )
        return result, None
    async with connected(settings) as (_, driver):
        if not (args.practice_cycles or args.bootstrap_practice):
            memory = Memory(driver, settings.agent_id)
            active = await memory.heuristics.active()
            listed = _file_version(settings, active)
            strategies = split_strategies(active, args.domain, args.seed, version=listed)
            _print_learned(strategies, None, args.json)
            result = await _arms_with_bank(args, settings, llm, strategies, tasks, memory)
            return result, None
        memory = Memory(driver, f"bench-transfer-{new_id().lower()}")
        try:
            strategies, practice = await _learn(args, settings, llm, memory)
            _print_learned(strategies, practice, args.json)
            result = await _arms_with_bank(args, settings, llm, strategies, tasks, memory)
        finally:
            if not args.keep_agent:
                await memory.forget()
        return result, practice


async def _arms_with_bank(
    args: argparse.Namespace,
    settings: Settings,
    llm: LLMClient,
    strategies: StrategySet,
    tasks: Sequence[Problem],
    memory: Memory,
) -> TransferResult:
    """The arms, with ``memory``'s case bank for the case arms."""
    bank = CaseBank(memory.cases, settings.cases)
    return await run_transfer(
        llm,
        settings,
        strategies,
        tasks,
        bank,
        seed=args.seed,
        domain=args.domain,
        arms=args.arms,
        patience_s=args.model_patience,
    )


async def _learn(
    args: argparse.Namespace, settings: Settings, llm: LLMClient, memory: Memory
) -> tuple[StrategySet, Practice | None]:
    """A fresh agent's strategies (and cases): N real cycles, or the bootstrap shortcut."""
    if args.practice_cycles:
        with tempfile.TemporaryDirectory(prefix="nous-transfer-") as root:
            practice = await practice_cycles(
                memory, llm, settings, args.practice_cycles, Path(root)
            )
        version = f"learned in {args.practice_cycles} RSI cycles (agent {memory.agent_id})"
        return split_strategies(practice.active, args.domain, args.seed, version=version), practice
    active = await bootstrap_strategies(memory, llm, settings, args.bootstrap_practice)
    version = f"crystallized now from {args.bootstrap_practice} practice trajectories"
    return split_strategies(active, "code", args.seed, version=version), None


def _print_learned(strategies: StrategySet, practice: Practice | None, as_json: bool) -> None:
    if practice is not None:
        where = sys.stderr if as_json else sys.stdout  # stdout stays one JSON document
        print(format_practice(practice), file=where, flush=True)
    for h in strategies.learned:
        print(f"learned [{h.domain}] {h.content}", file=sys.stderr)


def _file_version(settings: Settings, active: Sequence[Heuristic]) -> str | None:
    """The version ``.nous/strategies.json`` gives this very set, if the file lists it."""
    path = settings.watch.root.expanduser().resolve() / ".nous" / "strategies.json"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        listed = {str(h["id"]) for h in document["heuristics"]}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return f"v{document.get('version', '?')}" if listed == {h.id for h in active} else None


RSI_OPTIONS = {
    "agent_id": "agent_id",
    "crystallize_after": "rsi.crystallize_after",
    "trial_problems": "rsi.trial_problems",
}
"""``--agent-id``, ``--crystallize-after``, ``--trial-problems``: the settings each sets."""


async def _main(args: argparse.Namespace) -> int:
    overrides = model_overrides(args) | given_options(args, RSI_OPTIONS)
    overrides["rsi.held_out_problems"] = args.held_out
    if args.practice_cycles:
        # The transfer arms measure code: the bench's practice is code practice.
        overrides["rsi.bootstrap_domains"] = [args.domain]
    if (args.bootstrap_practice or args.practice_cycles) and args.domain != "code":
        print("bench.transfer: practice makes code strategies only", file=sys.stderr)
        return 2
    settings = load_settings(args.config, overrides=overrides)
    try:
        async with LLMClient(settings.llm) as llm:
            result, practice = await _measure(args, settings, llm)
    except ModelStalled as exc:
        print(f"bench.transfer: {exc}", file=sys.stderr)
        return 3
    if args.json:
        document = asdict(result)
        if practice is not None:
            document["practice"] = {
                "cycles": [c.model_dump(mode="json") for c in practice.cycles],
                "heuristics": [
                    {
                        **h.heuristic.model_dump(mode="json"),
                        "trials": [t.model_dump(mode="json") for t in h.trials],
                    }
                    for h in practice.heuristics
                ],
            }
        document["client_errors"] = client_errors(practice, result)
        print(json.dumps(document, indent=2))
    else:
        print(format_result(result))
        print(f"client errors: {client_errors(practice, result)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the transfer benchmark from the command line."""
    parser = argparse.ArgumentParser(prog="python -m bench.transfer", description=__doc__)
    parser.add_argument("--config", type=Path, help="settings file (default: nous.yaml, if any)")
    parser.add_argument("--agent-id", help="whose learned strategies (default: agent_id)")
    parser.add_argument("--strategies", type=Path, help="a strategies.json instead of the graph")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint (default: llm.base_url)")
    parser.add_argument(
        "--model-patience",
        type=float,
        default=PATIENCE_S,
        help="seconds to wait for a model that stopped answering before stopping the run "
        f"(default {PATIENCE_S:.0f}); a task is never counted failed without being asked",
    )
    parser.add_argument("--model", help="model name (default: llm.model)")
    parser.add_argument("--domain", default="code", help="the learned strategies' domain (code)")
    parser.add_argument("--seed", type=int, default=3, help="seed of the control's draw (3)")
    parser.add_argument("--limit", type=int, help="only the first N held-out problems")
    parser.add_argument(
        "--bootstrap-practice",
        type=int,
        metavar="N",
        help="no agent's strategies: crystallize them now from N practice trajectories",
    )
    parser.add_argument(
        "--practice-cycles",
        type=int,
        metavar="N",
        help="a fresh agent runs N real RSI cycles with the model first, and its strategies "
        "are measured",
    )
    parser.add_argument(
        "--held-out",
        type=int,
        default=len(HELD_OUT_IDS),
        metavar="N",
        help="held-out split size (20, the seed's, up to 82); practice draws from the rest",
    )
    parser.add_argument(
        "--llm-timeout", type=float, help="llm.timeout_s (the floor of every timeout) for this run"
    )
    parser.add_argument("--crystallize-after", type=int, help="rsi.crystallize_after for this run")
    parser.add_argument("--trial-problems", type=int, help="rsi.trial_problems for this run")
    parser.add_argument(
        "--keep-agent", action="store_true", help="keep the practice agent's graph afterwards"
    )
    parser.add_argument(
        "--arms",
        type=arms_argument(ARMS, "none"),
        default=ARMS,
        help=f"comma-separated arms to run (default: all; none is always run): {', '.join(ARMS)}",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    return asyncio.run(_main(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
