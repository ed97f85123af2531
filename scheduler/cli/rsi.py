"""``nous rsi cycle|prune|report`` (and its alias ``python -m rsi``): self-improvement by hand.

Each command takes the daemon's ``--config``, ``--agent-id`` and ``--root``,
finds Neo4j as the daemon does (starting one if none answers) and applies
the schema; the parts are the daemon's own (:mod:`scheduler.compose`), so a
cycle run by hand crystallizes and carries strategies as a scheduled one
does. Bad settings exit 2 naming the key; a failure exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from graph.errors import GraphError
from graph.settings import Settings, child_environment
from rsi.errors import RSIError
from rsi.prune import format_prune
from rsi.report import build_report, format_report
from scheduler.cli.common import (
    EXIT_NOT_FOUND,
    EXIT_OK,
    CommandError,
    common_options,
    settings_from,
)
from scheduler.compose.connect import Connected, connected
from scheduler.improvement import build_self_improvement
from scheduler.logs import LOG_FORMAT

CommandBody = Callable[[argparse.Namespace, Connected], Awaitable[int]]

DESCRIPTION = "Nous's self-improvement: run a cycle, prune the heuristics, read the report."
PRUNE = "retire unused, harmful and surplus heuristics now; print what and why"
REPORT = "activation rate, rejections, practice, heuristics, direction variance, clarifications"


def register(commands: Any) -> None:
    """Add ``nous rsi`` and its commands."""
    add_commands(commands.add_parser("rsi", help=DESCRIPTION, description=DESCRIPTION))


def rsi_parser(prog: str) -> argparse.ArgumentParser:
    """``nous rsi``'s command line on its own (``python -m rsi``)."""
    parser = argparse.ArgumentParser(prog=prog, description=DESCRIPTION)
    add_commands(parser)
    return parser


def add_commands(parser: argparse.ArgumentParser) -> None:
    """``cycle``, ``prune`` and ``report``, with ``--log-level`` before them."""
    levels = ["DEBUG", "INFO", "WARNING", "ERROR"]
    parser.add_argument("--log-level", choices=levels, type=str.upper, default="INFO")
    commands = parser.add_subparsers(dest="rsi_command", required=True, metavar="COMMAND")
    common = common_options(prints_data=False, root=True)
    cycle = commands.add_parser(
        "cycle",
        parents=[common],
        help="run one self-improvement cycle now",
        description=(
            "Reflect on what happened since the last cycle, verify and route the desires, "
            "practice one, crystallize the domains with enough successful practice, and "
            "print the cycle's counts as JSON."
        ),
    )
    cycle.add_argument("--seed", type=int, help="fix the selection draw (default: random)")
    cycle.add_argument(
        "--no-llm", action="store_true", help="reflect by rules only and do not practice"
    )
    cycle.set_defaults(handler=_command(_cycle))
    prune = commands.add_parser("prune", parents=[common], help=PRUNE, description=PRUNE)
    prune.set_defaults(handler=_command(_prune))
    report = commands.add_parser("report", parents=[common], help=REPORT, description=REPORT)
    report.add_argument("--json", action="store_true", help="print JSON for scripts")
    report.add_argument(
        "--cycles", type=int, default=5, help="how many of the latest cycles get a window (5)"
    )
    report.set_defaults(handler=_command(_report))


def _command(body: CommandBody) -> Callable[[argparse.Namespace], int]:
    """Run ``body`` with the agent's memory and LLM client; failures become exit 1."""

    def handler(args: argparse.Namespace) -> int:
        settings = settings_from(args)
        # Not forced: a caller that set up logging (a test, a script) keeps its handlers.
        logging.basicConfig(level=args.log_level, format=LOG_FORMAT)
        try:
            return asyncio.run(_connected(body, args, settings))
        except (GraphError, RSIError) as exc:
            raise CommandError(str(exc), EXIT_NOT_FOUND) from None

    return handler


async def _connected(body: CommandBody, args: argparse.Namespace, settings: Settings) -> int:
    async with connected(
        settings, child_environment(), start_neo4j=True, migrate=True, llm=True
    ) as parts:
        return await body(args, parts)


async def _cycle(args: argparse.Namespace, parts: Connected) -> int:
    llm = None if args.no_llm else parts.llm
    improvement = await build_self_improvement(
        parts.settings.rsi, parts.memory, llm, parts.root, chat_model=parts.settings.llm.model
    )
    result = await improvement.engine.run_cycle(seed=args.seed)
    print(json.dumps(result.model_dump(mode="json"), indent=2))
    return EXIT_NOT_FOUND if result.error else EXIT_OK


async def _prune(args: argparse.Namespace, parts: Connected) -> int:
    settings = parts.settings
    improvement = await build_self_improvement(
        settings.rsi, parts.memory, None, parts.root, code_notes=settings.code_notes
    )
    print(format_prune(await improvement.pruner.run()))
    return EXIT_OK


async def _report(args: argparse.Namespace, parts: Connected) -> int:
    report = await build_report(parts.memory.heuristics, cycles=max(0, args.cycles))
    if args.json:
        print(json.dumps(report.as_json(), indent=2, sort_keys=True))
    else:
        print(format_report(report))
    return EXIT_OK
