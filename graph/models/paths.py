"""Pure helpers about the paths of watched files: no graph, no I/O."""

from __future__ import annotations

import uuid

_FILE_NAMESPACE = uuid.UUID("6f2b1c1e-6a53-4c4e-9a4e-2f1f0d6b9a10")


def file_id(agent_id: str, path: str) -> str:
    """A stable id for a ``File`` node, so every writer MERGEs the same node."""
    return str(uuid.uuid5(_FILE_NAMESPACE, f"{agent_id}\0{path}"))


def path_pattern(path: str | None) -> str | None:
    """The folder and extension of a path, as recall groups files (``docs/*.md``)."""
    if not path:
        return None
    folder, _, name = path.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    suffix = f"*.{ext}" if dot and stem else "*"
    return f"{folder}/{suffix}" if folder else suffix
