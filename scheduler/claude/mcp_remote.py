"""``nous mcp`` on stdio with ``claude.team_url``: the team server's tools, for the plugin.

The plugin's MCP server is ``nous mcp`` on stdio, started by Claude Code in
every project. With ``claude.team_url`` set (as for the hooks,
:mod:`scheduler.claude.hook_team`), it holds no memory of its own: each
tool call is made on the team server (``nous mcp --http``) with the
developer's token, and its answer passed back as it came. The tools offered
are the same functions, descriptions and ``_meta`` as ever
(:func:`scheduler.claude.mcp_server.build_server`); only what answers them
differs.

Each call opens its own short MCP session with the server (initialize, the
call, close): calls are few, and a server restarted between two of them
costs nothing. What goes wrong (no server, a refused token, a call slower
than ``mcp.tool_timeout_s``) is the call's error, saying what to fix.
"""

from __future__ import annotations

import ssl
from typing import Any

import anyio
import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import CallToolResult, TextContent

from scheduler.claude.hook_team import HOW_TO_REPLACE, TeamServer
from scheduler.claude.mcp_remember import Kind

MCP_PATH = "/mcp"
CONNECT_TIMEOUT_S = 5.0


class RemoteTools:
    """The tools, each answered by the team server for the token's agent."""

    def __init__(self, server: TeamServer, timeout_s: float) -> None:
        """``timeout_s``: ``mcp.tool_timeout_s``, the whole call's limit here (the server has
        its own, the same setting on its side)."""
        self.server = server
        self.url = f"{server.url.rstrip('/')}{MCP_PATH}"
        self.timeout_s = timeout_s

    async def recall(self, question: str, path: str | None = None) -> str:
        """The team server's ``recall``."""
        return await self.call("recall", question=question, path=path)

    async def why(self, target: str) -> str:
        """The team server's ``why``."""
        return await self.call("why", target=target)

    async def censors(self) -> str:
        """The team server's ``censors``."""
        return await self.call("censors")

    async def strategies(self) -> str:
        """The team server's ``strategies``."""
        return await self.call("strategies")

    async def escalations(self) -> str:
        """The team server's ``escalations``."""
        return await self.call("escalations")

    async def goals(self) -> str:
        """The team server's ``goals``."""
        return await self.call("goals")

    async def remember(
        self, kind: Kind, text: str, source: str, name: str | None = None, domain: str = ""
    ) -> str:
        """The team server's ``remember``."""
        return await self.call(
            "remember", kind=kind, text=text, source=source, name=name, domain=domain
        )

    async def call(self, tool: str, **arguments: Any) -> str:
        """``tool`` called on the team server; its text, or a :class:`ToolError` saying why not."""
        given = {k: v for k, v in arguments.items() if v is not None}
        try:
            with anyio.fail_after(self.timeout_s):
                result = await self._call(tool, given)
        except TimeoutError:
            raise ToolError(
                f"{tool}: the team server at {self.server.url} gave no answer within"
                f" {self.timeout_s:g} s (mcp.tool_timeout_s)"
            ) from None
        except Exception as exc:  # the SDK's task groups wrap what httpx raised
            raise ToolError(f"{tool}: {self._why(exc)}") from None
        text = "\n".join(c.text for c in result.content if isinstance(c, TextContent))
        if result.isError:
            raise ToolError(text or f"{tool}: the team server answered an error")
        return text

    async def _call(self, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        verify: ssl.SSLContext | bool = True
        if self.server.ca_file:
            verify = ssl.create_default_context(cafile=self.server.ca_file)
        headers = {"Authorization": f"Bearer {self.server.token}"}
        timeout = httpx.Timeout(self.timeout_s, connect=CONNECT_TIMEOUT_S)
        async with (
            httpx.AsyncClient(headers=headers, verify=verify, timeout=timeout) as http,
            streamable_http_client(self.url, http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await session.call_tool(tool, arguments)

    def _why(self, exc: BaseException) -> str:
        """What went wrong, from the first error inside the SDK's exception groups."""
        while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
            exc = exc.exceptions[0]
        url = self.server.url
        if isinstance(exc, httpx.HTTPStatusError) and exc.response.status_code == 401:
            return f"the team server at {url} refused the token; {HOW_TO_REPLACE}"
        if isinstance(exc, httpx.ConnectError):
            return (
                f"no team server answers at {url} ({exc}): is `nous mcp --http` running there,"
                " and is claude.team_url right?"
            )
        return f"the team server at {url} failed: {type(exc).__name__}: {exc}"
