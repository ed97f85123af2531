"""``nous run`` (and its alias ``python -m graph.daemon``): watch a folder, keep its story in Neo4j.

This module reads the command line and the settings only; the daemon is
built in :mod:`scheduler.compose` and run by :mod:`scheduler.app`, imported
late so that ``--help`` and a bad settings file answer within a second.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from cognition.act.locate import templates_source
from graph.errors import GraphError, RootRefusedError, SettingsError
from graph.settings import child_environment
from graph.watch.roots import check_root
from graph.yamlfile import YamlFileError, check_file
from scheduler.cli.common import (
    EXIT_NOT_FOUND,
    EXIT_USAGE,
    CommandError,
    common_options,
    settings_from,
)
from scheduler.logs import LOG_FILE_BACKUPS, LOG_FILE_BYTES, configure_logging

DESCRIPTION = (
    "Watch a folder and turn every change into an Observation node in Neo4j. "
    "Neo4j is found or started: NEO4J_URI, a server on bolt://localhost:7687, "
    "Docker, or Neo4j Community run from Maven Central with Java 17+."
)


def register(commands: Any) -> None:
    """Add ``nous run``."""
    parser = commands.add_parser(
        "run",
        parents=[common_options(prints_data=False, root=True)],
        help="run the daemon (as python -m graph.daemon)",
        description=DESCRIPTION,
    )
    add_arguments(parser)


def daemon_parser(prog: str) -> argparse.ArgumentParser:
    """The daemon's command line on its own (``python -m graph.daemon``)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        parents=[common_options(prints_data=False, root=True)],
        description=DESCRIPTION,
    )
    add_arguments(parser)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The daemon's own options, beside the common ones; the handler is :func:`run`."""
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="decide and record everything, but run no action (executors.dry_run)",
    )
    parser.add_argument(
        "--log-level",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        type=str.upper,
        help="logging to stderr (default: log_level in the settings, else INFO); "
        "DEBUG also shows every run of every scheduled job",
    )
    parser.add_argument(
        "--log-file",
        type=Path,
        metavar="PATH",
        help=f"also log to PATH, rotated at {LOG_FILE_BYTES // 2**20} MiB"
        f" ({LOG_FILE_BACKUPS} old files kept)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the daemon from parsed options; 2 for bad settings or root, 1 when it failed."""
    settings = settings_from(args)
    templates = templates_source(settings.templates_file, settings.watch.root).path
    if templates is not None:
        try:
            # Before the slow imports below: a hostile file is refused within a second.
            check_file(templates, what="templates file")
        except YamlFileError as exc:
            raise CommandError(str(exc), EXIT_USAGE) from None
    root = settings.watch.root.expanduser()
    if not root.is_dir():
        raise CommandError(f"watch.root: {root} is not a folder", EXIT_USAGE)
    try:
        check_root(root)  # before the slow imports below, and before anything is written
    except RootRefusedError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    try:
        configure_logging(settings.log_level, args.log_file)
    except OSError as exc:
        raise CommandError(
            f"--log-file: {args.log_file}: {exc.strerror or exc}", EXIT_USAGE
        ) from None
    from scheduler.app import run_daemon

    try:
        return asyncio.run(run_daemon(settings, child_environment(), out=sys.stdout))
    except SettingsError as exc:  # e.g. a bad action template file, found at start
        raise CommandError(str(exc), EXIT_USAGE) from None
    except GraphError as exc:
        raise CommandError(str(exc), EXIT_NOT_FOUND) from None
