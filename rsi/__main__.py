"""``python -m rsi COMMAND``: the same as ``nous rsi COMMAND``, kept for the README and scripts.

The commands, their options and their settings are
:mod:`scheduler.cli.rsi`'s; this alias only names the program.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; exit 2 on bad settings or usage, 1 when it failed."""
    # The command line lives with the others in the scheduler, which builds the parts.
    from scheduler.cli import run_command
    from scheduler.cli.rsi import rsi_parser

    return run_command(rsi_parser("python -m rsi"), argv)


if __name__ == "__main__":
    sys.exit(main())
