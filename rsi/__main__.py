"""``python -m rsi <command>``: self-improvement from the command line.

The commands are the modules of :mod:`rsi.commands` that define
``register``; each takes the daemon's ``--config``, ``--agent-id`` and ``--root``.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import pkgutil
import sys
from collections.abc import Sequence

import rsi.commands
from graph.errors import GraphError, SettingsError
from rsi.commands.common import EXIT_FAILURE, EXIT_USAGE
from rsi.errors import RSIError


def parser() -> argparse.ArgumentParser:
    """The command line, with one subcommand per module of :mod:`rsi.commands`."""
    top = argparse.ArgumentParser(prog="python -m rsi", description="Nous's self-improvement.")
    top.add_argument("--log-level", choices=["DEBUG", "INFO", "WARNING", "ERROR"], default="INFO")
    subparsers = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(rsi.commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name == "common":
            continue
        module = importlib.import_module(f"rsi.commands.{info.name}")
        register = getattr(module, "register", None)
        if callable(register):
            register(subparsers)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; exit 2 on bad settings or usage, 1 when it failed."""
    args = parser().parse_args(argv)
    logging.basicConfig(
        level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        code: int = asyncio.run(args.run(args))
    except SettingsError as exc:
        print(f"rsi: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (GraphError, RSIError) as exc:
        print(f"rsi: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    return code


if __name__ == "__main__":
    sys.exit(main())
