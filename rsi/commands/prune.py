"""``python -m rsi prune``: retire the heuristics that do not earn their place, now."""

from __future__ import annotations

import argparse

from rsi.build import build_self_improvement
from rsi.commands.common import EXIT_OK, add_daemon_options, connect, settings_from
from rsi.prune import PruneReport

HELP = "retire unused, harmful and surplus heuristics now; print what and why"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``prune`` to the ``rsi`` command line."""
    parser = subparsers.add_parser("prune", help=HELP, description=HELP)
    add_daemon_options(parser)
    parser.set_defaults(run=run)


async def run(args: argparse.Namespace) -> int:
    """Prune the agent's heuristics (a job run of its own), rewrite the strategies files."""
    settings = settings_from(args)
    async with connect(settings) as c:
        parts = await build_self_improvement(settings.rsi, c.memory, None, c.root)
        report = await parts.pruner.run()
    print(format_prune(report))
    return EXIT_OK


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
