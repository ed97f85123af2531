"""The ``nous`` command: run the daemon, and look at and act on what it keeps in Neo4j.

Each subcommand lives in its own module with a ``register(commands)``
function; every query it runs comes from ``cypher/``. Exit codes: 0 done,
1 not found (or nothing answers), 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from scheduler.cli import (
    audit,
    browser,
    calibration,
    censors,
    embeddings,
    escalations,
    goals,
    neo4j,
    rsi,
    run,
    service,
    status,
    why,
)
from scheduler.cli.common import CommandError

SUBCOMMANDS = (
    run,
    status,
    why,
    escalations,
    censors,
    goals,
    rsi,
    calibration,
    audit,
    browser,
    neo4j,
    service,
    embeddings,
)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``nous`` and every subcommand (``nous SUBCOMMAND --help``)."""
    parser = argparse.ArgumentParser(
        prog="nous",
        description="Run Nous, and look at and act on what it keeps in Neo4j.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    for module in SUBCOMMANDS:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except CommandError as exc:
        print(f"nous: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130
    return code


def entry_point() -> None:
    """The console script ``nous``."""
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
