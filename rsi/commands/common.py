"""What every ``python -m rsi`` subcommand shares: the daemon's options and an open memory."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from graph.server.finder import find_or_start
from graph.settings import Settings, load_settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.migrate import apply_migrations

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """The daemon's ``--config``, ``--agent-id`` and ``--root``."""
    parser.add_argument("--config", type=Path, help="settings file (default: nous.yaml, if any)")
    parser.add_argument(
        "--agent-id", help="the agent in the graph (default: agent_id, else 'nous')"
    )
    parser.add_argument(
        "--root", type=Path, help="the watched folder, whose .nous/ holds the strategies files"
    )


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings with the command line's overrides; raises ``SettingsError`` when bad."""
    overrides: dict[str, Any] = {}
    if getattr(args, "agent_id", None):
        overrides["agent_id"] = args.agent_id
    if getattr(args, "root", None) is not None:
        overrides["watch.root"] = str(args.root)
    return load_settings(getattr(args, "config", None), overrides=overrides)


def state_dir(settings: Settings) -> Path:
    """The watched root's ``.nous`` folder, where the strategies files live."""
    return settings.watch.root.expanduser().resolve() / ".nous"


@asynccontextmanager
async def open_memory(settings: Settings) -> AsyncIterator[Memory]:
    """The agent's memory on a Neo4j found (or started) as the daemon finds it; closed after."""
    endpoint = await asyncio.to_thread(find_or_start, settings.neo4j)
    driver = GraphDriver(endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database)
    await driver.start()
    try:
        await apply_migrations(driver)
        yield Memory(driver, settings.agent_id)
    finally:
        await driver.close()
