"""The team server's hooks: ``POST /hooks/EVENT`` answered for the agent the token names.

``nous hook EVENT`` on a developer's machine with ``claude.team_url`` set
posts its payload here (:mod:`scheduler.claude.hook_client`,
:mod:`scheduler.claude.hook_team`) instead of opening Neo4j itself. The
request has passed the bearer gate (:mod:`scheduler.claude.mcp_auth`), which
put the token's agent on it; the hook is answered by the same
:class:`~scheduler.claude.session.ClaudeSession` a hook process or the
daemon builds, over that agent's memory on the server's one connection, and
for the server's project, as the MCP tools are. The reply is what the hook
prints (200, possibly empty).

Bounds: a body over :data:`~scheduler.claude.events.MAX_PAYLOAD_BYTES` (what
a hook reads of its stdin) is refused (413) before it is read past that;
the work has :func:`~scheduler.claude.hook_server.answer_limit` of the
server's ``claude.hook_timeout_s`` (504 after it: part of it may be
written). The server never opens a path a client chose: a payload's
``transcript_path`` names a file on the developer's machine, so a hook that
reads the transcript first asks from which byte (``POST
/hooks/transcript-offset``, the session's cursor) and sends what was appended
since after its payload (``x-nous-payload-bytes``, ``x-nous-transcript-offset``),
read as the file would be (:class:`~scheduler.claude.transcript.SentTranscript`).
Without them the path is dropped.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from graph.errors import GraphError
from graph.store.memory import Memory
from scheduler.claude.events import BY_NAME, MAX_PAYLOAD_BYTES
from scheduler.claude.hook_server import answer_limit
from scheduler.claude.mcp_memory import MemoryUnavailable
from scheduler.claude.mcp_team import TeamTools
from scheduler.claude.payload import HookInput, PayloadError, parse_payload
from scheduler.claude.session import ClaudeSession
from scheduler.claude.transcript import SentTranscript

log = logging.getLogger(__name__)
HOOKS_PATH = "/hooks/"
"""Where hooks are posted (the client's :data:`scheduler.claude.hook_team.HOOKS_PATH`)."""

TRANSCRIPT_OFFSET = "transcript-offset"
"""``POST /hooks/transcript-offset`` (a Stop payload): from which byte the client is to send
the session's transcript with its next hook that reads one."""
PAYLOAD_BYTES = b"x-nous-payload-bytes"
TRANSCRIPT_FROM = b"x-nous-transcript-offset"

SessionBuilder = Callable[[Memory], ClaudeSession]
"""Builds the hooks' session over one agent's memory (the composition root's)."""


class HookRefused(Exception):
    """A hook request answered with an HTTP error status before (or instead of) its work."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status


class TeamHooks:
    """ASGI app: each hook answered by its agent's session, built on first use and kept."""

    def __init__(self, tools: TeamTools, build: SessionBuilder, hook_timeout_s: float) -> None:
        """``tools``: the team server's agents (their memory, their background vectors);
        ``hook_timeout_s``: ``claude.hook_timeout_s`` (the work's limit, see
        :func:`~scheduler.claude.hook_server.answer_limit`)."""
        self.tools = tools
        self.build = build
        self.limit_s = answer_limit(hook_timeout_s)
        self._sessions: dict[str, ClaudeSession] = {}
        self.answered = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one ``POST /hooks/EVENT`` (the bearer gate has checked its token)."""
        try:
            text = await self._answer(scope, receive)
        except HookRefused as exc:
            await _reply(send, exc.status, _error(str(exc)), "application/json")
            return
        await _reply(send, 200, text.encode(), "text/plain; charset=utf-8")

    async def _answer(self, scope: Scope, receive: Receive) -> str:
        if scope.get("method") != "POST":
            raise HookRefused(405, "a hook is posted (POST /hooks/EVENT)")
        event = str(scope.get("path", ""))[len(HOOKS_PATH) :]
        spec = BY_NAME.get(event)
        if spec is None and event != TRANSCRIPT_OFFSET:
            raise HookRefused(404, f"no such hook event: {event[:50]!r}")
        agent_id = _agent(scope)
        body = await _body(scope, receive)
        try:
            if spec is None:  # its path only names the transcript: nothing is read
                payload = parse_payload(body, _named(body))
            else:
                payload = _payload(scope, body, event)
        except PayloadError as exc:
            raise HookRefused(400, str(exc)) from None
        try:
            async with asyncio.timeout(self.limit_s):
                session = await self._session(agent_id)
                if spec is None:  # where this session's transcript is to be sent from
                    return str(await _offset(session, payload))
                answer = await session.answer(event, payload)
        except TimeoutError:
            raise HookRefused(504, f"no answer within {self.limit_s:g} s") from None
        except MemoryUnavailable as exc:
            raise HookRefused(503, str(exc)) from None
        except GraphError as exc:
            gone = await self.tools.team.failed(exc)
            log.warning("hook %s for %s failed: %s: %s", event, agent_id, type(exc).__name__, exc)
            raise HookRefused(503, str(gone or f"Nous's memory failed: {exc}")) from None
        except Exception as exc:  # one hook's failure must not end the server
            log.warning("hook %s for %s failed", event, agent_id, exc_info=True)
            raise HookRefused(500, f"{type(exc).__name__}: {exc}") from None
        self.answered += 1
        # What the turn wrote gets its vectors off the hook's path.
        if spec is not None and spec.vectors:
            vectors = self.tools.for_agent(agent_id).vectors
            if vectors is not None:
                vectors.nudge()
        return answer.render(event)

    async def _session(self, agent_id: str) -> ClaudeSession:
        """``agent_id``'s session, built again when the shared connection was replaced."""
        memory = await self.tools.team.memory_for(agent_id)
        session = self._sessions.get(agent_id)
        if session is None or session.memory is not memory:
            session = self._sessions[agent_id] = self.build(memory)
        return session


def with_hooks(app: ASGIApp, hooks: TeamHooks) -> ASGIApp:
    """``app`` (the MCP tools) with ``/hooks/…`` answered by ``hooks`` instead."""

    async def route(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith(HOOKS_PATH):
            await hooks(scope, receive, send)
        else:
            await app(scope, receive, send)

    return route


def _payload(scope: Scope, body: bytes, event: str) -> HookInput:
    """The hook's payload; with ``x-nous-payload-bytes``, the payload is that many bytes of the
    body and the rest is the transcript from byte ``x-nous-transcript-offset`` on."""
    headers = dict(scope.get("headers", []))
    size, offset = headers.get(PAYLOAD_BYTES), headers.get(TRANSCRIPT_FROM)
    if size is None or offset is None:
        payload = parse_payload(body, event)
        payload.transcript_path = None  # the client's file: never opened here
        return payload
    if not size.isdigit() or not offset.isdigit() or int(size) > len(body):
        raise PayloadError(f"{event}: bad {PAYLOAD_BYTES.decode()} or {TRANSCRIPT_FROM.decode()}")
    payload = parse_payload(body[: int(size)], event)
    # transcript_path stays: it names the transcript (a moved one is read from its start),
    # and keep_transcript reads the bytes sent instead of opening it.
    payload.transcript = SentTranscript(int(offset), body[int(size) :])
    return payload


def _named(body: bytes) -> str:
    """The event a transcript offset is asked for (its payload's ``hook_event_name``)."""
    try:
        named = json.loads(body).get("hook_event_name")
    except (ValueError, AttributeError):
        raise PayloadError("transcript-offset: the body is not a hook's JSON payload") from None
    spec = BY_NAME.get(named) if isinstance(named, str) else None
    if spec is None or "transcript_path" not in spec.fields:
        raise PayloadError(f"transcript-offset: {str(named)[:50]!r} reads no transcript")
    return spec.name


async def _offset(session: ClaudeSession, payload: HookInput) -> int:
    """Where the next read of the payload's session's transcript starts (0: from its start)."""
    cursor = await session.layer.memory.transcripts.cursor(payload.session_id)
    if cursor.path != payload.transcript_path:
        return 0
    return cursor.offset


def _agent(scope: Scope) -> str:
    """The token's agent, as the bearer gate set it (refused when it did not: never reached)."""
    user = scope.get("user")
    token = getattr(user, "access_token", None)
    subject = getattr(token, "subject", None)
    if not isinstance(subject, str) or not subject:
        raise HookRefused(401, "this request came without a valid token")
    return subject


async def _body(scope: Scope, receive: Receive) -> bytes:
    """The request's body, refused (413) past :data:`MAX_PAYLOAD_BYTES` before it is read."""
    for name, value in scope.get("headers", []):
        if name == b"content-length" and value.isdigit() and int(value) > MAX_PAYLOAD_BYTES:
            raise HookRefused(413, f"a hook's payload is at most {MAX_PAYLOAD_BYTES} bytes")
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise HookRefused(400, "the client went away")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_PAYLOAD_BYTES:
            raise HookRefused(413, f"a hook's payload is at most {MAX_PAYLOAD_BYTES} bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _error(why: str) -> bytes:
    return json.dumps({"error": "hook_refused", "error_description": why}).encode()


async def _reply(send: Send, status: int, body: bytes, content_type: str) -> None:
    headers = [
        (b"content-type", content_type.encode()),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
