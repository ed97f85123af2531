"""Talking to a real ``nous mcp`` subprocess with the MCP SDK's own client, over stdio."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

EMPTY = Path(__file__).resolve().parents[2] / "support" / "empty.yaml"
TOOLS = {"recall", "why", "censors", "strategies", "escalations", "goals", "remember"}
READ_ONLY = TOOLS - {"remember"}


def server_command(agent_id: str, config: Path = EMPTY) -> list[str]:
    """The command line a client would run (``nous mcp``), as this interpreter's module."""
    return [sys.executable, "-m", "scheduler.cli", "mcp", "--config", str(config),
            "--agent-id", agent_id]  # fmt: skip


@asynccontextmanager
async def mcp_session(
    command: list[str], env: Mapping[str, str], cwd: Path, errlog: Path
) -> AsyncIterator[ClientSession]:
    """An initialized client session with the server ``command`` starts; stderr to ``errlog``."""
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(env), cwd=cwd)
    with errlog.open("w") as err:
        async with (
            stdio_client(params, errlog=err) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def text_of(result: CallToolResult) -> str:
    """The one text block a Nous tool answers with."""
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text


async def call(session: ClientSession, tool: str, **arguments: object) -> str:
    """Call ``tool``; its text, asserting it succeeded."""
    result = await session.call_tool(tool, dict(arguments))
    assert not result.isError, text_of(result)
    return text_of(result)


async def call_failing(session: ClientSession, tool: str, **arguments: object) -> str:
    """Call ``tool``; its error text, asserting it failed as a tool (not as the server)."""
    result = await session.call_tool(tool, dict(arguments))
    assert result.isError, text_of(result)
    return text_of(result)
