"""A node's id and creation time, made without pydantic (a hook's lean path makes them too).

:mod:`graph.models.base` gives every node model these as defaults; a Claude Code
hook that writes a node's properties itself (issue 27: no pydantic on its path)
makes them here, the same way.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
import uuid
from datetime import UTC, datetime

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""A ULID's alphabet: Crockford's base 32."""


def new_id() -> str:
    """A new node id: a ULID (48 bits of Unix milliseconds, then 80 random bits, in 26
    characters of Crockford's base 32), so ids sort by creation time.

    Made here, not by ``python-ulid``: its import reads the installed packages' metadata,
    which costs a hook process (issue 27) more than the whole id is worth.
    """
    global _last, _pid
    now = time.time_ns() // 1_000_000
    with _lock:
        if _pid != os.getpid():  # a forked child: counting on from its parent could repeat ids
            _last, _pid = 0, os.getpid()
        # The same millisecond (or the clock stepped back): one more than the last id, so
        # ids made in one process keep their order (``ORDER BY x.at, x.id`` breaks ties).
        fresh = now << 80 | int.from_bytes(os.urandom(10), "big")
        value = _last + 1 if now <= _last >> 80 else fresh
        _last = value
    return "".join(_CROCKFORD[(value >> shift) & 31] for shift in range(125, -5, -5))


_lock = threading.Lock()
_last = 0
"""The last id made in this process, as a number (:func:`new_id` counts on from it)."""
_pid = os.getpid()


def utc_now() -> datetime:
    """The current time, timezone-aware in UTC (Neo4j stores it as ``datetime``)."""
    return datetime.now(UTC)


_FILE_NAMESPACE = uuid.UUID("6f2b1c1e-6a53-4c4e-9a4e-2f1f0d6b9a10")
_NAMESPACE_BYTES = _FILE_NAMESPACE.bytes


def file_id(agent_id: str, path: str) -> str:
    """A stable id for a ``File`` node, so every writer MERGEs the same node.

    ``str(uuid.uuid5(namespace, f"{agent_id}\\0{path}"))``, computed without building a
    ``UUID`` (a third of an observation's row on a batch's way to Neo4j went there).
    """
    name = f"{agent_id}\0{path}".encode()
    digest = bytearray(hashlib.sha1(_NAMESPACE_BYTES + name, usedforsecurity=False).digest())
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    h = digest[:16].hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
