"""``nous run``: the daemon, with the very options of ``python -m graph.daemon``."""

from __future__ import annotations

import argparse
from typing import Any

from graph import daemon


def register(commands: Any) -> None:
    """Add ``nous run``; its options are the daemon's own parser's."""
    parser = commands.add_parser(
        "run", help="run the daemon (as python -m graph.daemon)", description=daemon.DESCRIPTION
    )
    daemon.add_arguments(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    return daemon.run(args)
