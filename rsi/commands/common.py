"""What every ``rsi`` command shares: the daemon's options, the settings, the memory and the LLM.

Like the daemon, each command takes ``--config``, ``--agent-id`` and
``--root``; bad settings exit with code 2, naming the key.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cognition.llm import LLMClient
from graph.server.finder import find_or_start
from graph.settings import Settings, child_environment, load_settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.migrate import apply_migrations

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


def add_daemon_options(parser: argparse.ArgumentParser) -> None:
    """``--config``, ``--agent-id`` and ``--root``, as the daemon has them."""
    parser.add_argument(
        "--config",
        type=Path,
        help="settings file (default: nous.yaml in the current folder, if there is one)",
    )
    parser.add_argument(
        "--agent-id", help="name of this agent in the graph (default: agent_id, else 'nous')"
    )
    parser.add_argument(
        "--root",
        type=Path,
        help="the watched folder (default: watch.root in the settings, else the current folder)",
    )


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings with the command line's overrides; raises ``SettingsError`` (exit 2)."""
    overrides: dict[str, Any] = {}
    if args.root is not None:
        overrides["watch.root"] = str(args.root)
    if args.agent_id is not None:
        overrides["agent_id"] = args.agent_id
    return load_settings(args.config, overrides=overrides)


@dataclass
class Connected:
    """An agent's memory and the LLM client, for one command."""

    settings: Settings
    memory: Memory
    llm: LLMClient
    root: Path


@asynccontextmanager
async def connect(settings: Settings) -> AsyncIterator[Connected]:
    """Find Neo4j (as the daemon does), apply the schema, open the LLM client; close both after."""
    endpoint = await asyncio.to_thread(find_or_start, settings.neo4j, environ=child_environment())
    driver = GraphDriver(endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database)
    await driver.start()
    llm = LLMClient(settings.llm)
    try:
        await apply_migrations(driver)
        await llm.start()
        root = settings.watch.root.expanduser().resolve()
        yield Connected(settings, Memory(driver, settings.agent_id), llm, root)
    finally:
        await llm.close()
        await driver.close()
