"""``python -m rsi report``: self-improvement's figures, overall and per cycle window."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from graph.settings import Settings
from graph.store.heuristics import HeuristicStore
from rsi.commands.common import add_common_arguments, open_memory
from rsi.report import build_report, format_report

HELP = "activation rate, rejections, practice, heuristics, direction variance, clarifications"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``report`` and its options."""
    parser = subparsers.add_parser("report", help=HELP, description=HELP)
    add_common_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    parser.add_argument(
        "--cycles", type=int, default=5, help="how many of the latest cycles get a window (5)"
    )


async def run(args: argparse.Namespace, settings: Settings, out: TextIO) -> int:
    """Read and print the report."""
    async with open_memory(settings) as memory:
        report = await build_report(HeuristicStore(memory), cycles=max(0, args.cycles))
    if args.json:
        print(json.dumps(report.as_json(), indent=2, sort_keys=True), file=out)
    else:
        print(format_report(report), file=out)
    return 0
