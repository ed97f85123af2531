"""``nous mcp`` on the command line: its parser, with the server imported only when it runs.

The MCP SDK takes a noticeable part of a second to import; every other
``nous`` subcommand (a Claude Code hook above all) starts without it.
"""

from __future__ import annotations

import argparse
from typing import Any

from scheduler.cli.common import common_options

MCP_JSON_EXAMPLE = '{"mcpServers": {"nous": {"command": "nous", "args": ["mcp"]}}}'


def register(commands: Any) -> None:
    """Add ``nous mcp``."""
    parser = commands.add_parser(
        "mcp",
        parents=[common_options(prints_data=False)],
        help="serve the agent's memory to an MCP client (Claude Code, Claude Desktop) on stdio",
        description="A Model Context Protocol server on stdin/stdout: tools recall, why, censors,"
        " strategies, escalations, goals and remember over the agent's memory, the same as the"
        f" daemon's. Logs go to stderr. In .mcp.json: {MCP_JSON_EXAMPLE}",
    )
    parser.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    from scheduler.claude.mcp_server import serve

    return serve(args)
