"""The daemon's side of :mod:`scheduler.claude.hook_socket`: hooks answered by the running daemon.

The daemon runs :meth:`HookServer.serve` as one of its parts. Each
connection carries one hook; it is answered by the same
:class:`~scheduler.claude.session.ClaudeSession` a hook process would build,
over the daemon's own memory, within :func:`answer_limit`. The socket is
made readable and writable by its owner only, and removed when the daemon
stops.

A request is refused (``E``: the hook may work alone) only before its work
begins: malformed, too large, another root, a bad payload. Once the work
has begun, a timeout or a failure is reported as ``F``: the hook then adds
nothing rather than redo what the daemon may have written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
import time
from collections import deque
from pathlib import Path

from scheduler.claude.events import BY_NAME, MAX_PAYLOAD_BYTES
from scheduler.claude.hook_client import FALLBACK_TIMEOUT_S
from scheduler.claude.hook_socket import ANSWER, FAILURE, REFUSAL, private, socket_path, usable
from scheduler.claude.payload import PayloadError, parse_payload
from scheduler.claude.session import ClaudeSession

log = logging.getLogger(__name__)
_REQUEST_LIMIT = MAX_PAYLOAD_BYTES + 8192  # the payload, its event and root
WORK_KEPT = 10_000
"""How many hooks' work times the daemon keeps."""
HANDOVER_MARGIN_S = 2.0
"""What the daemon leaves of the hook's hard limit: the hook's start before it asks, the reply."""


def answer_limit(hook_timeout_s: float) -> float:
    """How long the daemon works on one hook: ``claude.hook_timeout_s``, capped below the hook's.

    The hook process reads no settings: it waits for the daemon until its
    fixed hard limit (:data:`~scheduler.claude.hook_client.FALLBACK_TIMEOUT_S`,
    15 s). The daemon's limit is therefore the setting, but at most that
    limit less :data:`HANDOVER_MARGIN_S` (counted from the hook's start, not
    from the request's arrival), so a daemon whose time ran out says so before
    the hook gives up. A setting above 15 s (up to 60) lengthens only a hook
    that works alone.
    """
    return min(hook_timeout_s, FALLBACK_TIMEOUT_S - HANDOVER_MARGIN_S)


class HookServer:
    """Answers Claude Code hooks on the root's socket while the daemon runs."""

    def __init__(self, session: ClaudeSession, root: Path, timeout_s: float) -> None:
        """``timeout_s`` is ``claude.hook_timeout_s``; a hook is worked on within its limit."""
        self.session = session
        self.root = str(root.resolve())
        self.path = socket_path(root)
        self.timeout_s = answer_limit(timeout_s)
        """How long one hook is worked on (:func:`answer_limit` of the setting)."""
        self.answered = 0
        # Bounded: the daemon runs for days and answers a hook at every tool call.
        self.work_ms: deque[float] = deque(maxlen=WORK_KEPT)
        """How long each recent hook's work took inside the daemon (for the benchmark)."""

    async def serve(self, stop: asyncio.Event) -> None:
        """Listen until ``stop`` is set; hooks work alone where no socket can be made."""
        if not usable(self.path):
            log.info("hook socket path too long (%s); hooks will work alone", self.path)
            await stop.wait()
            return
        folder = self.path.parent
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            log.warning("no hook socket folder %s (%s); hooks will work alone", folder, exc)
            await stop.wait()
            return
        if not private(folder):
            log.warning("%s is not this user's private folder; hooks will work alone", folder)
            await stop.wait()
            return
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISSOCK(self.path.lstat().st_mode):
                self.path.unlink()  # left by a daemon that did not stop cleanly
        server = await asyncio.start_unix_server(self._handle, path=str(self.path))
        os.chmod(self.path, 0o600)
        try:
            await stop.wait()
        finally:
            server.close()
            await server.wait_closed()
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(self.timeout_s):
                reply = ANSWER + (await self._answer(await _read_request(reader))).encode()
        except Refused as exc:  # nothing done: the hook may work alone
            reply = REFUSAL + str(exc).encode()
        except TimeoutError:  # part of the work may be written: the hook must not redo it
            reply = FAILURE + f"no answer within {self.timeout_s:g} s".encode()
        except Exception as exc:  # one hook's failure must not end the server
            reply = FAILURE + f"{type(exc).__name__}: {exc}".encode()
        try:
            writer.write(reply)
            await writer.drain()
        except OSError:
            pass  # the hook gave up waiting
        finally:
            writer.close()

    async def _answer(self, data: bytes) -> str:
        parts = data.split(b"\0", 2)
        if len(parts) != 3:
            raise Refused("expected EVENT NUL ROOT NUL PAYLOAD")
        event, root, raw = parts[0].decode("ascii", "replace"), parts[1], parts[2]
        spec = BY_NAME.get(event)
        if spec is None:
            raise Refused(f"no such hook event: {event[:50]!r}")
        if not spec.daemon:
            raise Refused(f"{event} is answered by the hook alone")
        if root != os.fsencode(self.root):
            raise Refused(f"this daemon watches {self.root}")
        try:
            payload = parse_payload(raw, event)
        except PayloadError as exc:
            raise Refused(str(exc)) from None
        started = time.perf_counter()
        answer = await self.session.answer(event, payload)
        self.work_ms.append((time.perf_counter() - started) * 1000)
        self.answered += 1
        return answer.render(event)


class Refused(Exception):
    """A request this daemon does none of (malformed, too large, another root, a bad payload)."""


async def _read_request(reader: asyncio.StreamReader) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while chunk := await reader.read(65536):
        chunks.append(chunk)
        size += len(chunk)
        if size > _REQUEST_LIMIT:
            raise Refused("request too large")
    return b"".join(chunks)
