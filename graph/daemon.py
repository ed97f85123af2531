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
from pathlib import Path
from typing import Any

from graph.errors import GraphError, SettingsError
from graph.settings import child_environment, load_settings
from graph.yamlfile import YamlFileError, check_file

EXIT_FAILURE, EXIT_USAGE = 1, 2


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line; ``--help`` explains every option."""
    parser = argparse.ArgumentParser(
        prog="python -m graph.daemon",
        description=(
            "Watch a folder and turn every change into an Observation node in Neo4j. "
            "Neo4j is found or started: NEO4J_URI, a server on bolt://localhost:7687, "
            "Docker, or Neo4j Community run from Maven Central with Java 17+."
        ),
    )
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
        help="logging to stderr (default: log_level in the settings, else INFO)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the daemon; return the process exit code (2 for bad settings or root)."""
    args = parse_args(argv)
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
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
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


if __name__ == "__main__":
    sys.exit(main())
