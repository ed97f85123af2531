"""``python -m graph.daemon``: watch a folder and keep its story in Neo4j.

This module only reads the command line and the settings; the daemon itself
is assembled in :mod:`scheduler.app`, the one composition root.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

from graph.errors import GraphError, SettingsError
from graph.settings import child_environment, load_settings
from graph.yamlfile import YamlFileError, check_file

EXIT_FAILURE, EXIT_USAGE = 1, 2


DESCRIPTION = (
    "Watch a folder and turn every change into an Observation node in Neo4j. "
    "Neo4j is found or started: NEO4J_URI, a server on bolt://localhost:7687, "
    "Docker, or Neo4j Community run from Maven Central with Java 17+."
)
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_FILE_BYTES, LOG_FILE_BACKUPS = 10 * 1024 * 1024, 5
# APScheduler logs two lines at INFO for every run of every job (every 2 s for the
# decision loop); they bury the status line, so they show only at DEBUG.
_PER_RUN_LOGGERS = ("apscheduler.executors.default", "apscheduler.scheduler")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line; ``--help`` explains every option."""
    parser = argparse.ArgumentParser(prog="python -m graph.daemon", description=DESCRIPTION)
    add_arguments(parser)
    return parser.parse_args(argv)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The daemon's options, shared by ``python -m graph.daemon`` and ``nous run``."""
    parser.add_argument(
        "--root",
        type=Path,
        help="the folder to watch (default: watch.root in the settings, else the current folder)",
    )
    parser.add_argument(
        "--config",
        type=Path,
        help="settings file (default: nous.yaml in the current folder, if there is one)",
    )
    parser.add_argument(
        "--agent-id", help="name of this agent in the graph (default: agent_id, else 'nous')"
    )
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the daemon; return the process exit code (2 for bad settings or root)."""
    return run(parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """Run the daemon from parsed options (see :func:`add_arguments`)."""
    overrides: dict[str, Any] = {}
    if args.root is not None:
        overrides["watch.root"] = str(args.root)
    if args.agent_id is not None:
        overrides["agent_id"] = args.agent_id
    if args.log_level is not None:
        overrides["log_level"] = args.log_level
    if args.dry_run:
        overrides["executors.dry_run"] = True
    try:
        settings = load_settings(args.config, overrides=overrides)
        if settings.templates_file is not None:
            # Before the slow imports below: a hostile file is refused within a second.
            check_file(settings.templates_file, what="templates file")
    except (SettingsError, YamlFileError) as exc:
        print(f"nous: {exc}", file=sys.stderr)
        return EXIT_USAGE
    root = settings.watch.root.expanduser()
    if not root.is_dir():
        print(f"nous: watch.root: {root} is not a folder", file=sys.stderr)
        return EXIT_USAGE
    try:
        configure_logging(settings.log_level, args.log_file)
    except OSError as exc:
        print(f"nous: --log-file: {args.log_file}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    # Imported here so that `--help` and settings errors answer without loading
    # the driver, the scheduler and the rest.
    from scheduler.app import run_daemon

    try:
        return asyncio.run(run_daemon(settings, child_environment(), out=sys.stdout))
    except SettingsError as exc:  # e.g. a bad action template file, found at start
        print(f"nous: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except GraphError as exc:
        print(f"nous: {exc}", file=sys.stderr)
        return EXIT_FAILURE


def configure_logging(level: str, log_file: Path | None = None) -> None:
    """Log to stderr (and to a rotating ``log_file``); job runs only at DEBUG."""
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    if log_file is not None:
        log_file = log_file.expanduser()
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(
            RotatingFileHandler(
                log_file, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS, encoding="utf-8"
            )
        )
    logging.basicConfig(level=level, format=LOG_FORMAT, handlers=handlers, force=True)
    quiet = logging.DEBUG if level == "DEBUG" else logging.WARNING
    for name in _PER_RUN_LOGGERS:
        logging.getLogger(name).setLevel(quiet)


if __name__ == "__main__":
    sys.exit(main())
