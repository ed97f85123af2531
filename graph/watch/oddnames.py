"""File names that are not valid UTF-8 or hold a control character: recorded once, then skipped.

Such a name cannot be a node's path (a Python ``str`` holds it only with
surrogate escapes, which neither Neo4j nor ``uuid5`` accepts), and watchfiles
stops the whole watch with ``WatchfilesRustInternalError`` when an event
names one. The watcher and the rescan skip it; each is recorded as one
observation without a path, with ``metadata.error`` and the path's bytes
escaped (``metadata.name``). Its id is derived from the agent and the
escaped path, and observations are written with ``MERGE`` on their id, so
meeting the same name again (another rescan, another start) records nothing new.
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

from graph.models.observe import Observation, ObservationType
from graph.watch.files import escape_path

UNDECODABLE = "the file name is not valid UTF-8 or holds a control character; Nous skips this file"
_NAMESPACE = uuid.UUID("0b9e7e7c-4d0e-4c52-a7a5-5b8a3f9f4c1d")
# watchfiles' message for such a name: the path as Rust's Debug formatting writes it.
_RUST_MESSAGE = re.compile(r'Unable to decode path "((?:[^"\\]|\\.)*)" to string')
_RUST_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u\{[0-9A-Fa-f]{1,6}\}|.)", re.DOTALL)
_SIMPLE = {"n": b"\n", "r": b"\r", "t": b"\t", "0": b"\0", "\\": b"\\", '"': b'"', "'": b"'"}


def odd_name_observation(agent_id: str, escaped: str, *, source: str) -> Observation:
    """The one observation of an undecodable path (relative, escaped by :func:`escape_path`)."""
    return Observation(
        id=str(uuid.uuid5(_NAMESPACE, f"{agent_id}\0{escaped}")),
        agent_id=agent_id,
        type=ObservationType.EXTERNAL_EVENT,
        metadata={"source": source, "error": UNDECODABLE, "name": escaped},
    )


def undecodable_paths(exc: BaseException, root: Path) -> list[str] | None:
    """The escaped relative paths named by watchfiles' undecodable-path errors in ``exc``.

    ``exc`` may be the error itself or an exception group holding it. None
    when any part of ``exc`` is something else: then it is a real failure.
    """
    found: list[str] = []
    errors = exc.exceptions if isinstance(exc, BaseExceptionGroup) else (exc,)
    for error in errors:
        if isinstance(error, BaseExceptionGroup):
            inner = undecodable_paths(error, root)
            if inner is None:
                return None
            found.extend(inner)
            continue
        match = _RUST_MESSAGE.search(str(error)) if isinstance(error, RuntimeError) else None
        if match is None:
            return None
        raw = _unescape(match.group(1))
        prefix = os.fsencode(root) + b"/"
        found.append(escape_path(raw[len(prefix) :] if raw.startswith(prefix) else raw))
    return found


def _unescape(text: str) -> bytes:
    out = bytearray()
    position = 0
    for match in _RUST_ESCAPE.finditer(text):
        out += text[position : match.start()].encode("utf-8")
        code = match.group(1)
        if code.startswith("x") and len(code) == 3:
            out.append(int(code[1:], 16))
        elif code.startswith("u{"):
            out += chr(int(code[2:-1], 16)).encode("utf-8", "backslashreplace")
        else:
            out += _SIMPLE.get(code, code.encode("utf-8"))
        position = match.end()
    out += text[position:].encode("utf-8")
    return bytes(out)
