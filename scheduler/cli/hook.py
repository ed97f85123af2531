"""``nous hook EVENT``: what Claude Code runs for each hook (see :mod:`scheduler.claude.hooks`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from scheduler.claude.payload import EVENTS
from scheduler.cli.common import common_options, settings_from


def register(commands: Any) -> None:
    """Add ``nous hook EVENT [--root DIR]``."""
    parser = commands.add_parser(
        "hook",
        parents=[common_options(prints_data=False)],
        help="answer one Claude Code hook (JSON on stdin); never fails the turn",
        description=(
            "Called by Claude Code (see `nous init claude`): reads the hook's JSON on stdin, "
            "prints the answer Claude Code reads, and always exits 0."
        ),
    )
    parser.add_argument("event", choices=EVENTS)
    parser.add_argument(
        "--root", type=Path, help="the project Claude Code works in (default: the current folder)"
    )
    parser.set_defaults(handler=_hook)


def _hook(args: argparse.Namespace) -> int:
    from scheduler.claude.hooks import main

    return main(args.event, load=lambda: settings_from(args), root=args.root)
