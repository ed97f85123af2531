"""``python -m rsi report``: self-improvement's figures, overall and per cycle window."""

from __future__ import annotations

import argparse
import json

from graph.store.heuristics import HeuristicStore
from rsi.commands.common import EXIT_OK, add_daemon_options, connect, settings_from
from rsi.report import build_report, format_report

HELP = "activation rate, rejections, practice, heuristics, direction variance, clarifications"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``report`` to the ``rsi`` command line."""
    parser = subparsers.add_parser("report", help=HELP, description=HELP)
    add_daemon_options(parser)
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    parser.add_argument(
        "--cycles", type=int, default=5, help="how many of the latest cycles get a window (5)"
    )
    parser.set_defaults(run=run)


async def run(args: argparse.Namespace) -> int:
    """Read and print the report."""
    settings = settings_from(args)
    async with connect(settings) as c:
        report = await build_report(HeuristicStore(c.memory), cycles=max(0, args.cycles))
    if args.json:
        print(json.dumps(report.as_json(), indent=2, sort_keys=True))
    else:
        print(format_report(report))
    return EXIT_OK
