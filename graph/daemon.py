"""``python -m graph.daemon``: the same as ``nous run``, kept for the README and scripts.

The options, the settings and the daemon are :mod:`scheduler.cli.run`'s;
this alias only names the program.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

PROG = "python -m graph.daemon"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, parsed by ``nous run``'s own parser."""
    from scheduler.cli.run import daemon_parser

    return daemon_parser(PROG).parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the daemon; return the process exit code (2 for bad settings or root)."""
    # The memory package names the program; the command line itself is the scheduler's.
    from scheduler.cli import run_command
    from scheduler.cli.run import daemon_parser

    return run_command(daemon_parser(PROG), argv)


if __name__ == "__main__":
    sys.exit(main())
