"""The ``nous`` command: run the daemon, and look at and act on what it keeps in Neo4j.

Everything a person runs is a ``nous`` subcommand; ``python -m graph.daemon``
(``nous run``) and ``python -m rsi`` (``nous rsi``) are aliases built from the
same parsers. Each subcommand lives in its own module with a
``register(commands)`` function; adding one is adding its module's name to
:data:`SUBCOMMANDS`. Every query it runs goes through a store method. Exit
codes: 0 done, 1 not found (or nothing answers, or it failed), 2 bad input.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the hook's path)
if TYPE_CHECKING:
    import argparse

SUBCOMMANDS: tuple[str, ...] = (
    "scheduler.cli.run",
    "scheduler.cli.status",
    "scheduler.cli.why",
    "scheduler.cli.escalations",
    "scheduler.cli.censors",
    "scheduler.cli.goals",
    "scheduler.cli.desires",
    "scheduler.cli.heuristics",
    "scheduler.cli.rsi",
    "scheduler.cli.calibration",
    "scheduler.cli.audit",
    "scheduler.cli.browser",
    "scheduler.cli.neo4j",
    "scheduler.cli.service",
    "scheduler.cli.embeddings",
    "scheduler.cli.init",
    "scheduler.cli.templates",
    "scheduler.cli.hook",
    "scheduler.cli.tokens",
    "scheduler.claude.mcp_command",
)
"""The modules whose ``register`` adds a subcommand, in ``nous --help``'s order.

Named rather than imported so that an alias (``python -m graph.daemon``)
loads only its own module: the others pull in the driver and all of
cognition, which ``--help`` and a bad settings file must not wait for.
"""


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``nous`` and every subcommand (``nous SUBCOMMAND --help``)."""
    # Imported here: ``nous hook`` never builds this parser and must not pay for it.
    import argparse
    import importlib

    parser = argparse.ArgumentParser(
        prog="nous",
        description="Run Nous, and look at and act on what it keeps in Neo4j.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(name).register(commands)
    return parser


def run_command(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` with ``parser`` and run the chosen handler; return its exit code."""
    from scheduler.cli.common import CommandError

    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except CommandError as exc:
        print(f"nous: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130
    return code


def is_hook(words: Sequence[str]) -> bool:
    """Whether ``words`` (the arguments after ``nous``) ask for a Claude Code hook's answer."""
    return words[:1] == ["hook"] and "-h" not in words and "--help" not in words


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; return its exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    if is_hook(words):
        # A Claude Code hook is a process per event: no other subcommand's modules, not even
        # the settings, unless the daemon does not answer (see scheduler.claude.hook_client).
        from scheduler.claude.hook_client import main as hook

        return hook(words[1:])
    return run_command(build_parser(), words)


def entry_point() -> None:
    """The console script ``nous``."""
    hook = is_hook(sys.argv[1:])
    if hook:
        # A hook's process lives a second: importing pydantic and the stores allocates enough
        # to run the cyclic collector many times over objects that all live until the end
        # (about a twentieth of the hook's CPU); reference counting frees the rest. Only here,
        # never in lean_process: a test calling the hook in its own process keeps its collector.
        gc.disable()
    code = main()
    if hook:
        from scheduler.claude.hook_client import leave

        leave(code)  # a hook's process ends without the interpreter's teardown
    sys.exit(code)


if __name__ == "__main__":
    entry_point()
