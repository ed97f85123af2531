"""``python -m rsi cycle``: run one RSI cycle now and print its counts."""

from __future__ import annotations

import argparse
import json

from rsi.build import build_self_improvement
from rsi.commands.common import EXIT_FAILURE, EXIT_OK, add_daemon_options, connect, settings_from


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``cycle`` to the ``rsi`` command line."""
    parser = subparsers.add_parser(
        "cycle",
        help="run one self-improvement cycle now",
        description=(
            "Reflect on what happened since the last cycle, verify and route the desires, "
            "practise one, crystallise the domains with enough successful practice, and "
            "print the cycle's counts as JSON."
        ),
    )
    add_daemon_options(parser)
    parser.add_argument("--seed", type=int, help="fix the selection draw (default: random)")
    parser.add_argument(
        "--no-llm", action="store_true", help="reflect by rules only and do not practise"
    )
    parser.set_defaults(run=run)


async def run(args: argparse.Namespace) -> int:
    """Run the cycle against the configured Neo4j and LLM; 1 when the cycle recorded an error."""
    settings = settings_from(args)
    async with connect(settings) as c:
        llm = None if args.no_llm else c.llm
        parts = await build_self_improvement(
            settings.rsi, c.memory, llm, c.root, chat_model=settings.llm.model
        )
        result = await parts.engine.run_cycle(seed=args.seed)
    print(json.dumps(result.model_dump(mode="json"), indent=2))
    return EXIT_FAILURE if result.error else EXIT_OK
