"""Pure helpers about the paths of watched files: no graph, no I/O."""

from __future__ import annotations

import hashlib
import uuid

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


def path_pattern(path: str | None) -> str | None:
    """The folder and extension of a path, as recall groups files (``docs/*.md``)."""
    if not path:
        return None
    folder, _, name = path.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    suffix = f"*.{ext}" if dot and stem else "*"
    return f"{folder}/{suffix}" if folder else suffix
