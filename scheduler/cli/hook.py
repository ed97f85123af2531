"""``nous hook EVENT``: what Claude Code runs for each hook (see :mod:`scheduler.claude.hooks`).

:func:`scheduler.cli.main` hands ``nous hook`` to :func:`scheduler.claude.hooks.main`
before building this parser; registering it here puts it in ``nous --help``.
"""

from __future__ import annotations

import argparse
from typing import Any

from scheduler.claude.hooks import add_hook_arguments
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
    add_hook_arguments(parser)
    parser.set_defaults(handler=_hook)


def _hook(args: argparse.Namespace) -> int:
    from scheduler.claude.hooks import main

    argv = [args.event]
    for option, value in (("--root", args.root), ("--config", args.config)):
        if value is not None:
            argv += [option, str(value)]
    if args.agent_id:
        argv += ["--agent-id", args.agent_id]
    return main(argv)
