"""``python -m rsi <command>``: self-improvement from the command line.

Each subcommand is one module of :mod:`rsi.commands` with ``add_parser`` and
``run``; every one takes the daemon's ``--config``, ``--agent-id`` and
``--root``. Exit codes: 0 done, 1 the memory failed, 2 bad settings or usage.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import TextIO

from graph.errors import GraphError, SettingsError
from graph.settings import Settings
from rsi.commands import prune, report
from rsi.commands.common import EXIT_FAILURE, EXIT_USAGE, settings_from
from rsi.errors import RSIError

Runner = Callable[[argparse.Namespace, Settings, TextIO], Coroutine[object, object, int]]
COMMANDS: dict[str, Runner] = {"prune": prune.run, "report": report.run}


def parser() -> argparse.ArgumentParser:
    """The command line with every subcommand."""
    top = argparse.ArgumentParser(
        prog="python -m rsi", description="Self-improvement from the command line."
    )
    subparsers = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    prune.add_parser(subparsers)
    report.add_parser(subparsers)
    return top


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run one subcommand; return the exit code."""
    args = parser().parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        settings = settings_from(args)
    except SettingsError as exc:
        print(f"rsi: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return asyncio.run(COMMANDS[args.command](args, settings, stream))
    except (GraphError, RSIError) as exc:
        print(f"rsi {args.command}: {exc}", file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
