"""``nous mcp --http``: the MCP tools over streamable HTTP, for a team, one token a person.

The same tools as ``nous mcp`` (:func:`scheduler.claude.mcp_server.build_server`),
served by uvicorn at ``http(s)://HOST:PORT/mcp``. Every request passes the
bearer gate (:mod:`scheduler.claude.mcp_auth`); every tool call answers
from the memory of the agent its token names (:mod:`scheduler.claude.mcp_team`),
and so does every Claude Code hook posted to ``/hooks/EVENT``
(:mod:`scheduler.claude.team_hooks`), by a developer's ``nous hook`` that
has ``claude.team_url`` and no Neo4j of its own.
Bounds keep one client from holding up the rest: a body over
``mcp.http.max_body_bytes`` is refused (413) before it is read whole, a
header block over 64 KiB is refused (400), connections past
``mcp.http.max_connections`` get 503, and each request is served in its
own task, so a client that sends slowly holds only its own connection.
Bound to 127.0.0.1 unless told otherwise; HTTPS when ``mcp.http.tls_cert``
and ``mcp.http.tls_key`` are given.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import ssl
import stat
from contextlib import AsyncExitStack
from pathlib import Path

import uvicorn
from mcp.server.transport_security import TransportSecuritySettings

from graph.settings import Settings
from graph.settings_claude import McpHttpSettings
from scheduler.claude.mcp_auth import BearerGate
from scheduler.claude.mcp_memory import MemoryUnavailable
from scheduler.claude.mcp_server import build_server
from scheduler.claude.mcp_team import TeamGate
from scheduler.claude.team_hooks import TeamHooks, with_hooks
from scheduler.cli.common import EXIT_OK, EXIT_USAGE, CommandError, settings_from
from scheduler.compose.mcp_http import build_team_tools, team_sessions
from scheduler.logs import configure_logging

log = logging.getLogger(__name__)
PATH = "/mcp"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
MAX_HEADER_BYTES = 65_536  # a request head larger than this is refused (400)
MAX_PEM_BYTES = 1_048_576  # a certificate chain or key larger than this is not one
# An idle kept-alive connection is closed after this long: longer than clients keep theirs
# (httpx, which the MCP SDK's client uses: 5 s), so that it is the client that closes it, never
# the server just as the client sends a request on it.
KEEP_ALIVE_S = 30


def serve_http(args: argparse.Namespace) -> int:
    """Run the team server until it is stopped (``nous mcp --http``)."""
    settings = settings_from(args)
    http = settings.mcp.http
    host = args.host or http.host
    port = args.port if args.port is not None else http.port
    if not 1 <= port <= 65535:
        raise CommandError(f"mcp --port {port}: a port is 1-65535", EXIT_USAGE)
    tls = tls_files(http)
    configure_logging(settings.log_level)
    if settings.log_level != "DEBUG":
        # The SDK logs every request at INFO; a team's sessions would drown the rest.
        for name in (
            "mcp.server.lowlevel.server",
            "mcp.server.streamable_http_manager",
            "mcp.server.streamable_http",
        ):
            logging.getLogger(name).setLevel(logging.WARNING)
    asyncio.run(_serve(settings, host, port, tls))
    return EXIT_OK


def tls_files(http: McpHttpSettings) -> tuple[Path, Path] | None:
    """The certificate and key to serve HTTPS with, checked; None: plain HTTP.

    Each must be a regular file (not a folder, a device or a pipe) of PEM size, and the two
    must load as a pair; a :class:`CommandError` names the key that is wrong.
    """
    if http.tls_cert is None or http.tls_key is None:
        return None
    cert, key = http.tls_cert.expanduser(), http.tls_key.expanduser()
    for name, path in (("mcp.http.tls_cert", cert), ("mcp.http.tls_key", key)):
        try:
            info = os.stat(path)
        except OSError as exc:
            raise CommandError(f"{name}: {path}: {exc.strerror}", EXIT_USAGE) from None
        if not stat.S_ISREG(info.st_mode):
            raise CommandError(f"{name}: {path} is not a regular file", EXIT_USAGE)
        if info.st_size > MAX_PEM_BYTES:
            raise CommandError(
                f"{name}: {path} is {info.st_size:,} bytes, too large for a PEM file", EXIT_USAGE
            )
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as exc:
        raise CommandError(
            f"mcp.http.tls_cert / mcp.http.tls_key: {cert} and {key} do not load as a PEM"
            f" certificate and its private key: {exc}",
            EXIT_USAGE,
        ) from None
    return cert, key


async def _serve(settings: Settings, host: str, port: int, tls: tuple[Path, Path] | None) -> None:
    http = settings.mcp.http
    async with AsyncExitStack() as stack:
        team = build_team_tools(stack, settings)
        # The tools' clean-ups are the server's, not a session's: no lifespan per session.
        server = build_server(
            settings,
            team.for_caller,
            None,
            host=host,
            streamable_http_path=PATH,
            max_request_body_size=http.max_body_bytes,
            max_sessions=http.max_sessions,
            session_idle_timeout=http.session_idle_s,
            transport_security=_transport_security(host),
        )
        hooks = TeamHooks(team, team_sessions(settings), settings.claude.hook_timeout_s)
        app = BearerGate(with_hooks(server.streamable_http_app(), hooks), team.team)
        await _connect(team.team)
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            ssl_certfile=tls[0] if tls else None,
            ssl_keyfile=tls[1] if tls else None,
            limit_concurrency=http.max_connections,
            timeout_keep_alive=KEEP_ALIVE_S,
            h11_max_incomplete_event_size=MAX_HEADER_BYTES,
            log_level=settings.log_level.lower(),
            access_log=False,
            server_header=False,
            lifespan="on",
        )
        scheme = "https" if tls else "http"
        log.info("serving Nous's MCP tools at %s://%s:%d%s", scheme, host, port, PATH)
        await uvicorn.Server(config).serve()


async def _connect(team: TeamGate) -> None:
    # Before the first request, not during it: a team's first requests all wait on the
    # connection. A Neo4j that is down now only makes requests answer 503 until it is up.
    try:
        await team.memory()
    except MemoryUnavailable as exc:
        log.warning("%s (requests are answered 503 until it is up)", exc)


def _transport_security(host: str) -> TransportSecuritySettings | None:
    # On a loopback address the SDK's own guard stays (Host and Origin must be local: a web
    # page cannot rebind a name to it); a server for a team is reached by names the SDK cannot
    # know, and every request needs a token anyway, which no web page has.
    if host in LOCAL_HOSTS:
        return None
    return TransportSecuritySettings(enable_dns_rebinding_protection=False)
