"""The running daemon answers hooks: a unix socket named after the project's root.

A hook is a process per event; importing the driver, pydantic and the
cognitive layer costs it several times what a bare interpreter costs, more
than the work itself. When a daemon runs on the project it already holds
all of that, so the hook process only forwards its payload here and prints
the answer (:func:`ask_daemon`, standard library only). With no daemon, a
stale socket, or a daemon that does not answer in time, the hook does the
work itself.

The socket lives outside the watched tree, in a folder of the user's own
under the temporary directory (``nous-UID/``, mode 0700), named by a hash of
the root's resolved path: a socket inside the root kept watchfiles from
noticing the root's deletion, and a unix socket's address must stay short.
The hook asks only through a folder that is its user's and private
(:func:`private`): one another user made first could hold a socket whose
answers reach the model or allow a tool call.

One request per connection: a line of JSON ``{"event", "root", "payload"}``
(the payload as Claude Code sent it, at most ``MAX_PAYLOAD_BYTES``), one
line of JSON back: ``{"answer": TEXT}`` (what the hook prints, possibly "")
or ``{"error": TEXT}``. The daemon answers for its own agent.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import tempfile
import zlib
from pathlib import Path

MAX_PATH_BYTES = 100
"""Unix socket paths are limited to about 108 bytes; a longer one is not used."""
CONNECT_TIMEOUT_S = 0.2
MAX_ANSWER_BYTES = 8 * 1024 * 1024


class DaemonUnavailable(Exception):
    """No daemon answered the hook (no socket, a stale one, a timeout, a bad answer)."""


def socket_folder() -> Path:
    """The user's own folder for hook sockets (``$TMPDIR/nous-UID``)."""
    return Path(tempfile.gettempdir()) / f"nous-{os.getuid()}"


def private(folder: Path) -> bool:
    """True when ``folder`` is a folder (not a link) of this user's that no one else may enter."""
    try:
        info = folder.lstat()
    except OSError:
        return False
    return (
        stat.S_ISDIR(info.st_mode)
        and info.st_uid == os.getuid()
        and not stat.S_IMODE(info.st_mode) & 0o077
    )


def socket_path(root: Path) -> Path:
    """Where the daemon watching ``root`` listens for hooks."""
    # crc32, not hashlib: hashlib loads OpenSSL, a quarter of the hook's start-up. Two roots
    # sharing a name is harmless: the daemon answers only for the root the request names.
    key = zlib.crc32(str(root.resolve()).encode())
    return socket_folder() / f"hooks-{key:08x}.sock"


def usable(path: Path) -> bool:
    """True when ``path`` is short enough to be a unix socket's address."""
    return len(str(path).encode()) <= MAX_PATH_BYTES


def ask_daemon(root: Path, event: str, payload: bytes, timeout_s: float) -> str:
    """The daemon's answer to one hook (the text to print); :class:`DaemonUnavailable` if none."""
    path = socket_path(root)
    if not usable(path) or not path.exists():
        raise DaemonUnavailable("no daemon socket")
    if not private(path.parent):
        # Another user could have made the folder first and listen in it: its answer
        # would reach the model's context, or allow a tool call.
        raise DaemonUnavailable(f"{path.parent} is not this user's private folder")
    request = json.dumps(
        {"event": event, "root": str(root.resolve()), "payload": payload.decode("utf-8", "replace")}
    )
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(CONNECT_TIMEOUT_S)
            conn.connect(str(path))
            conn.settimeout(timeout_s)
            conn.sendall(request.encode() + b"\n")
            conn.shutdown(socket.SHUT_WR)
            data = _read_all(conn)
    except OSError as exc:  # refused (stale socket), timed out, reset
        raise DaemonUnavailable(f"daemon socket: {exc.__class__.__name__}") from None
    try:
        reply = json.loads(data)
    except ValueError:
        raise DaemonUnavailable("daemon sent no JSON") from None
    if not isinstance(reply, dict) or not isinstance(reply.get("answer"), str):
        raise DaemonUnavailable(f"daemon could not answer: {reply.get('error', '?')}")
    return str(reply["answer"])


def _read_all(conn: socket.socket) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise OSError("answer too large")
