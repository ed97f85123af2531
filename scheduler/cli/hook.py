"""``nous hook EVENT``: what Claude Code runs for each hook (:mod:`scheduler.claude.hook_client`).

:func:`scheduler.cli.main` hands ``nous hook`` to the lean
:func:`scheduler.claude.hook_client.main` before building this parser, which
reads the arguments itself; registering the command here puts it in
``nous --help`` and ``nous hook --help``. Should this parser ever be what
read them, its values are handed over as they are, not as words to parse again.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from scheduler.claude.events import EVENTS
from scheduler.cli.common import common_options


def register(commands: Any) -> None:
    """Add ``nous hook EVENT [--root DIR]``."""
    parser = commands.add_parser(
        "hook",
        parents=[common_options(prints_data=False)],
        help="answer one Claude Code hook (JSON on stdin); never fails the turn",
        description=(
            "Called by Claude Code (see `nous init claude`): reads the hook's JSON on stdin, "
            "prints the answer Claude Code reads, and always exits 0. A daemon running on the "
            "project answers through its socket (/tmp/nous-UID); without one it works alone."
        ),
    )
    parser.add_argument("event", choices=EVENTS)
    parser.add_argument(
        "--root", type=Path, help="the project Claude Code works in (default: the current folder)"
    )
    parser.set_defaults(handler=_hook)


def _hook(args: argparse.Namespace) -> int:
    from scheduler.claude.hook_client import HookArguments, run

    def text(value: object) -> str | None:
        return None if value is None else str(value)

    return run(HookArguments(args.event, text(args.root), text(args.config), args.agent_id))
