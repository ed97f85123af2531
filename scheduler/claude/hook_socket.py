"""The running daemon answers hooks: a unix socket named after the project's root.

A hook is a process per event; importing the driver, pydantic and the
cognitive layer costs it several times what a bare interpreter costs, more
than the work itself. When a daemon runs on the project it already holds
all of that, so the hook process only forwards its payload here and prints
the answer (:func:`ask_daemon`). This module is the hook's first import, so
it stays within what a bare interpreter has loaded or nearly: no
``pathlib``, ``tempfile`` or ``socket`` (the C ``_socket`` does the work;
``socket.py`` would load ``selectors`` and build its enums).

Who does the work is decided once, when the request is handed over. Until
the daemon has taken it (connected, the request written and the writing
side shut) the hook may still work alone: no socket, a stale one, a
connect or write that fails or times out (:class:`DaemonUnavailable`). A
refusal (``E``) says the daemon did none of the work (a malformed request,
another root, a bad payload, a request too large), so the hook may work
alone then too. Once the daemon has taken the request, it alone does the
work: a daemon slow to answer, one whose own time ran out (``F``) or one
that closed without a reply may have written part of it already (a Turn,
a decision, events), and the hook redoing it would write it twice; the
hook then adds nothing (:class:`AnswerLost`).

The socket lives outside the watched tree, in a folder of the user's own
under ``/tmp`` (``/tmp/nous-UID/``, mode 0700), named by a hash of the
root's resolved path: a socket inside the root kept watchfiles from
noticing the root's deletion, and a unix socket's address must stay short.
``/tmp`` and not ``$TMPDIR``: the daemon (a service) and the hook (Claude
Code's child) may not share an environment, and ``tempfile`` costs the hook
a fifth of a bare interpreter's start.
The hook asks only through a folder that is its user's and private
(:func:`private`): one another user made first could hold a socket whose
answers reach the model or allow a tool call.

One request per connection, framed without JSON (``json`` would be the
hook's largest import): ``EVENT NUL ROOT NUL PAYLOAD`` (the root's resolved
path, which holds no NUL; the payload as Claude Code sent it, at most
``MAX_PAYLOAD_BYTES``), the writing side then shut; back, ``A`` and the
answer (UTF-8, what the hook prints, possibly empty), ``E`` and why the
daemon will not do this request, or ``F`` and why the work it began has no
answer. The daemon answers for its own agent.
"""

from __future__ import annotations

import _socket
import os
import stat
import time
import zlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the hook's path)
if TYPE_CHECKING:
    from pathlib import Path

# Safe in a shared /tmp: the folder in it is used only when private() (owned, 0700).
SOCKET_BASE = "/tmp"  # noqa: S108
"""Where the users' socket folders are made (tests point it elsewhere)."""
MAX_PATH_BYTES = 100
"""Unix socket paths are limited to about 108 bytes; a longer one is not used."""
CONNECT_TIMEOUT_S = 0.2
WRITE_TIMEOUT_S = 1.0
"""How long the request may take to write; past it the daemon has not taken it."""
MAX_ANSWER_BYTES = 8 * 1024 * 1024
ANSWER = b"A"
"""The first byte of a reply that carries the answer."""
REFUSAL = b"E"
"""The first byte of a reply that says why the daemon does none of this request."""
FAILURE = b"F"
"""The first byte of a reply that says why the work the daemon began has no answer."""


class DaemonUnavailable(Exception):
    """No daemon took the hook (no socket, a stale one, a failed hand-over, a refusal).

    The hook may do the work alone.
    """


class AnswerLost(Exception):
    """A daemon took the hook and gave no answer (too slow, its time ran out, it failed).

    It may have done part of the work: the hook must not redo it.
    """


def socket_folder() -> str:
    """The user's own folder for hook sockets (``/tmp/nous-UID``)."""
    return os.path.join(SOCKET_BASE, f"nous-{os.getuid()}")


def private(folder: str | Path) -> bool:
    """True when ``folder`` is a folder (not a link) of this user's that no one else may enter."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return (
        stat.S_ISDIR(info.st_mode)
        and info.st_uid == os.getuid()
        and not stat.S_IMODE(info.st_mode) & 0o077
    )


def socket_address(root: str | Path) -> str:
    """Where the daemon watching ``root`` listens for hooks, as a string."""
    # crc32, not hashlib: hashlib loads OpenSSL, a quarter of the hook's start-up. Two roots
    # sharing a name is harmless: the daemon answers only for the root the request names.
    # fsencode: a root whose name is not UTF-8 has a socket too (encode() would raise).
    key = zlib.crc32(os.fsencode(os.path.realpath(root)))
    return os.path.join(socket_folder(), f"hooks-{key:08x}.sock")


def socket_path(root: Path) -> Path:
    """Where the daemon watching ``root`` listens for hooks."""
    from pathlib import Path

    return Path(socket_address(root))


def usable(path: str | Path) -> bool:
    """True when ``path`` is short enough to be a unix socket's address."""
    return len(str(path).encode()) <= MAX_PATH_BYTES


def ask_daemon(root: str | Path, event: str, payload: bytes, wait_s: float) -> str:
    """The daemon's answer to one hook (the text to print), waited for up to ``wait_s``.

    :class:`DaemonUnavailable` when no daemon took the request (the hook may
    work alone); :class:`AnswerLost` when one took it and no answer came.
    """
    deadline = time.monotonic() + wait_s
    path = socket_address(root)
    if not usable(path) or not os.path.exists(path):
        raise DaemonUnavailable("no daemon socket")
    if not private(os.path.dirname(path)):
        # Another user could have made the folder first and listen in it: its answer
        # would reach the model's context, or allow a tool call.
        raise DaemonUnavailable(f"{os.path.dirname(path)} is not this user's private folder")
    request = b"\0".join([event.encode(), os.fsencode(os.path.realpath(root)), payload])
    conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        try:
            conn.settimeout(CONNECT_TIMEOUT_S)
            conn.connect(path)
            conn.settimeout(max(0.01, min(WRITE_TIMEOUT_S, deadline - time.monotonic())))
            conn.sendall(request)
            conn.shutdown(_socket.SHUT_WR)
        except OSError as exc:  # refused (stale socket), timed out, reset: not taken
            raise DaemonUnavailable(f"daemon socket: {exc.__class__.__name__}") from None
        # Taken: from here on only the daemon does the work.
        try:
            data = _read_all(conn, deadline)
        except OSError as exc:
            raise AnswerLost(f"the daemon took the hook, then {_why(exc, wait_s)}") from None
    finally:
        conn.close()
    kind, text = data[:1], data[1:].decode("utf-8", "replace")
    if kind == ANSWER:
        return text
    if kind == REFUSAL:
        raise DaemonUnavailable(f"daemon could not answer: {text[:500]}")
    if kind == FAILURE:
        raise AnswerLost(f"the daemon took the hook and did not finish: {text[:500]}")
    raise AnswerLost("the daemon took the hook and closed without an answer")


def _why(exc: OSError, wait_s: float) -> str:
    if isinstance(exc, TimeoutError):
        return f"gave no answer within {wait_s:.3g} s"
    return f"its answer was lost ({exc.__class__.__name__}: {exc})"


def _read_all(conn: _socket.socket, deadline: float) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out")
        conn.settimeout(left)
        chunk = conn.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise OSError("answer too large")
