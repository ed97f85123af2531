"""A refused login is not tried again for a minute, by any of Nous's processes on this machine.

Neo4j counts failed logins per user name and, past a few, refuses that user
to everyone for a while (``AuthenticationRateLimit``): the daemon, the hooks
and the tests alike. ``nous mcp`` with a wrong password tried again at every
tool call, and every hook is a process that would try once more. So every
login (the probe while finding Neo4j, a driver's start, a query whose
connection is refused) first asks :func:`check_login`: within
:data:`BACKOFF_S` of a refusal of the same credentials at the same address,
it fails at once with the refusal's message, which names the settings to
fix. A refusal is kept in this process and in a small file in the user's
runtime folder (:mod:`graph.runtime`), so short-lived processes honour it
too. The file holds the time and a 16-bit fingerprint of the password (not
the password): changed credentials are tried at once.
"""

from __future__ import annotations

import contextlib
import time
import zlib
from collections.abc import Callable
from datetime import datetime

from graph.errors import LoginRefusedError
from graph.runtime import runtime_folder

BACKOFF_S = 60.0
"""How long a refused login keeps every process from trying the same credentials again."""
SETTINGS = (
    "the settings neo4j.user and neo4j.password (in nous.yaml, or the environment "
    "variables NEO4J_USER and NEO4J_PASSWORD)"
)
"""What to fix after a refusal, named in every error."""
REFUSALS = frozenset(
    {
        "Neo.ClientError.Security.Unauthorized",
        "Neo.ClientError.Security.AuthenticationRateLimit",
        "Neo.ClientError.Security.CredentialsExpired",
        "Neo.ClientError.Security.AuthorizationFailed",
    }
)
"""Neo4j's codes for a login it refused (not Forbidden: a permission, after a login)."""

clock: Callable[[], float] = time.time  # tests move it
_refused: dict[str, tuple[float, int]] = {}  # key -> (when, password fingerprint), this process


def is_refusal(code: str | None) -> bool:
    """Whether Neo4j's error ``code`` means it refused the login."""
    return (code or "") in REFUSALS


def check_login(uri: str, user: str, password: str) -> None:
    """Raise :class:`~graph.errors.LoginRefusedError` when these credentials were refused lately."""
    key, print_ = _key(uri, user), _fingerprint(password)
    when = _last_refusal(key, print_)
    now = clock()
    if when is None or not 0 <= now - when < BACKOFF_S:
        return
    at = datetime.fromtimestamp(when).strftime("%H:%M:%S")
    again = datetime.fromtimestamp(when + BACKOFF_S).strftime("%H:%M:%S")
    raise LoginRefusedError(
        f"Neo4j at {uri} refused the login of user {user!r} at {at}; not tried again before "
        f"{again} (at most one login a minute, so that Neo4j does not lock the user out for "
        f"everyone). Fix {SETTINGS}."
    )


def login_refused(uri: str, user: str, password: str, code: str) -> LoginRefusedError:
    """Record a refusal of these credentials (here and for other processes); the error to raise."""
    key, print_ = _key(uri, user), _fingerprint(password)
    now = clock()
    _refused[key] = (now, print_)
    folder = runtime_folder()
    if folder is not None:
        with contextlib.suppress(OSError):  # without the file, this process still backs off
            (folder / f"login-refused-{key}").write_text(f"{now} {print_}\n", encoding="ascii")
    return LoginRefusedError(
        f"Neo4j at {uri} refused the login of user {user!r} ({code}); fix {SETTINGS}. "
        f"Not tried again for {BACKOFF_S:g} s."
    )


def _last_refusal(key: str, print_: int) -> float | None:
    known = _refused.get(key)
    if known is not None and known[1] == print_:
        return known[0]
    folder = runtime_folder()
    if folder is None:
        return None
    try:
        when, recorded = (folder / f"login-refused-{key}").read_text(encoding="ascii").split()
        return float(when) if int(recorded) == print_ else None
    except (OSError, ValueError):
        return None  # none recorded, or unreadable: a login may be tried


def _key(uri: str, user: str) -> str:
    where = "\0".join((uri, user)).encode()
    return f"{zlib.crc32(where):08x}"


def _fingerprint(password: str) -> int:
    # 16 bits: enough to tell changed credentials, far too few to tell anything of the password.
    return zlib.crc32(password.encode()) & 0xFFFF
