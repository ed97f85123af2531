"""``python -m rsi prune``: retire the heuristics that do not earn their place, now."""

from __future__ import annotations

import argparse
from typing import TextIO

from graph.settings import Settings
from graph.store.heuristics import HeuristicStore
from graph.store.learning import LearningStore
from rsi.commands.common import add_common_arguments, open_memory, state_dir
from rsi.prune import Pruner, PruneReport
from rsi.strategies import StrategyBook

HELP = "retire unused, harmful and surplus heuristics now; print what and why"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``prune`` and its options."""
    parser = subparsers.add_parser("prune", help=HELP, description=HELP)
    add_common_arguments(parser)


async def run(args: argparse.Namespace, settings: Settings, out: TextIO) -> int:
    """Prune the agent's heuristics (a job run of its own), write the strategies files."""
    async with open_memory(settings) as memory:
        store = HeuristicStore(memory)
        book = StrategyBook(store, settings.rsi.max_strategy_tokens, state_dir(settings))
        pruner = Pruner(store, LearningStore(memory), settings.rsi, on_change=book.refresh)
        report = await pruner.run()
    print(format_prune(report), file=out)
    return 0


def format_prune(report: PruneReport) -> str:
    """What was retired and why, one line each, then the active count."""
    done = set(report.pruned_ids)
    lines = [
        f"retired {c.heuristic.id} [{c.heuristic.domain}] {c.reason}: {c.detail}\n"
        f"  {c.heuristic.content}"
        for c in report.choices
        if c.heuristic.id in done
    ]
    if not lines:
        lines.append("nothing to retire")
    lines.append(
        f"{len(done)} retired; {report.active_after} active heuristics (run {report.run_id})"
    )
    return "\n".join(lines)
