"""The team server's door: every HTTP request shows a live bearer token, or goes no further.

An ASGI layer in front of the MCP app. It reads ``Authorization: Bearer
<token>``, hashes the token and looks the hash up (one indexed read a
request, so a revoked token is refused from its next request on), and hands
the request on with the token's agent as its user (``scope["user"]``, the
MCP SDK's own :class:`AuthenticatedUser`, whose ``subject`` is the agent
id). The SDK ties each MCP session to the token that opened it, and the
tools read the agent from the request (:func:`scheduler.claude.mcp_team.caller_agent`).
What is refused costs no body read: a missing, malformed, unknown or
revoked token gets 401, a Neo4j that cannot answer 503, before anything
else is read from the client.
"""

from __future__ import annotations

import asyncio
import json
import logging

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.authentication import AuthCredentials
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from graph.errors import GraphError
from graph.store.tokens import ApiToken
from scheduler.claude.mcp_memory import MemoryUnavailable
from scheduler.claude.mcp_team import TeamGate
from scheduler.claude.tokens import plausible, token_hash

log = logging.getLogger(__name__)


class BearerGate:
    """ASGI middleware: only requests with a live token reach ``app``."""

    def __init__(self, app: ASGIApp, team: TeamGate) -> None:
        self.app = app
        self.team = team
        # A lookup that takes longer answers 503 rather than leaving the request hanging.
        self.timeout_s = team.settings.mcp.tool_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse the request, or pass it on as the token's agent."""
        if scope["type"] != "http":  # the lifespan: the server's own start and end
            await self.app(scope, receive, send)
            return
        header = Headers(scope=scope).get("authorization", "")
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if not header:
            await _refuse(send, 401, "a bearer token is required (Authorization: Bearer ...)")
            return
        if scheme.lower() != "bearer" or not plausible(token):
            await _refuse(send, 401, "the bearer token is not one of this server's")
            return
        try:
            found = await self._lookup(token)
        except MemoryUnavailable as exc:
            await _refuse(send, 503, str(exc))
            return
        if found is None:
            await _refuse(send, 401, "the bearer token is unknown or revoked")
            return
        user = AuthenticatedUser(
            AccessToken(token=found.id, client_id=found.id, scopes=[], subject=found.agent_id)
        )
        await self.app({**scope, "user": user, "auth": AuthCredentials([])}, receive, send)

    async def _lookup(self, token: str) -> ApiToken | None:
        try:
            async with asyncio.timeout(self.timeout_s):
                store = await self.team.tokens()
                return await store.by_hash(token_hash(token))
        except TimeoutError:
            raise MemoryUnavailable(
                f"Nous's memory did not answer a token lookup within mcp.tool_timeout_s"
                f" ({self.timeout_s:g} s)"
            ) from None
        except GraphError as exc:
            gone = await self.team.failed(exc)
            log.warning("a token lookup failed: %s: %s", type(exc).__name__, exc)
            raise gone or MemoryUnavailable(f"Nous's memory failed: {exc}") from None


async def _refuse(send: Send, status: int, why: str) -> None:
    error = "invalid_token" if status == 401 else "temporarily_unavailable"
    body = json.dumps({"error": error, "error_description": why}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if status == 401:
        headers.append((b"www-authenticate", f'Bearer error="{error}"'.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
