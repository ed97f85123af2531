"""``nous mcp`` on the command line: its parser, with the server imported only when it runs.

The MCP SDK takes a noticeable part of a second to import; every other
``nous`` subcommand (a Claude Code hook above all) starts without it.
"""

from __future__ import annotations

import argparse
from typing import Any

from scheduler.cli.common import EXIT_USAGE, CommandError, common_options

MCP_JSON_EXAMPLE = '{"mcpServers": {"nous": {"command": "nous", "args": ["mcp"]}}}'


def register(commands: Any) -> None:
    """Add ``nous mcp``."""
    parser = commands.add_parser(
        "mcp",
        parents=[common_options(prints_data=False)],
        help="serve the agent's memory to an MCP client (Claude Code, Claude Desktop) on stdio,"
        " or a team's over HTTP (--http)",
        description="A Model Context Protocol server on stdin/stdout: tools recall, why, censors,"
        " strategies, escalations, goals and remember over the agent's memory, the same as the"
        f" daemon's. Logs go to stderr. In .mcp.json: {MCP_JSON_EXAMPLE}",
    )
    parser.add_argument(
        "--http",
        action="store_true",
        help="serve a team over streamable HTTP instead, one bearer token a person (nous tokens)",
    )
    parser.add_argument("--host", help="with --http: the address (default: mcp.http.host)")
    parser.add_argument("--port", type=int, help="with --http: the port (default: mcp.http.port)")
    parser.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    if args.http:
        from scheduler.claude.mcp_http import serve_http

        return serve_http(args)
    if args.host or args.port is not None:
        raise CommandError("mcp: --host and --port go with --http", EXIT_USAGE)
    from scheduler.claude.mcp_server import serve

    return serve(args)
