"""``nous neo4j start|stop|status``: the same as ``python -m graph.neo4j``."""

from __future__ import annotations

import argparse
from typing import Any

from graph.server.finder import main as neo4j_main


def register(commands: Any) -> None:
    """Add ``nous neo4j``, which hands its arguments to ``python -m graph.neo4j``."""
    parser = commands.add_parser(
        "neo4j",
        help="find, start or stop the Neo4j that holds the memory",
        description="Find, start or stop the Neo4j that holds the memory "
        "(the same as python -m graph.neo4j).",
    )
    parser.add_argument("action", choices=["start", "stop", "status"])
    parser.add_argument("--config", help="settings file (default: ./nous.yaml)")
    parser.add_argument("--agent-id", help="accepted like everywhere; one Neo4j serves every agent")
    parser.set_defaults(handler=_neo4j)


def _neo4j(args: argparse.Namespace) -> int:
    argv = [args.action] + (["--config", args.config] if args.config else [])
    return neo4j_main(argv)
