"""A Claude Code session's transcript, read from where the last read stopped (issue 58).

Every hook payload names the session's transcript (``transcript_path``): the
JSONL file Claude Code 2.1.328 appends to, one JSON object a line. The lines
Nous keeps are the conversation's text: ``{"type": "user", "message":
{"role": "user", "content": "…"}}`` (the person's prompt; a ``content`` list
whose blocks are ``tool_result`` is a tool's output, not the person) and
``{"type": "assistant", "message": {"content": [{"type": "text", …}]}}`` (the
model's words; one line per content block, ``tool_use`` and ``thinking``
blocks are not words). Every other valid line (``attachment``,
``queue-operation``, ``api-request``, ``last-prompt``, …) is passed over;
a side chain (a sub-agent's conversation, ``isSidechain``) too.

A read is bounded: it starts at the byte offset the last one ended at, reads
at most ``max_bytes``, keeps only whole lines (a line still being written is
read next time), skips and counts a line longer than ``max_line_bytes``
(never holding it) and any line that is not a JSON object with a ``type``.
A file that is not a regular file owned by this user (a symlink, a FIFO,
``/dev/zero``, another user's file) is never read. Standard library only:
the Stop hook imports it.
"""

from __future__ import annotations

import io
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_READ_BYTES = 8 * 1024 * 1024
"""What one read takes at most; the rest is read at the next Stop."""
MAX_LINE_BYTES = 1024 * 1024
"""A longer line is skipped and counted, never held (a tool's huge output, a snapshot)."""
MAX_TEXT_CHARS = 4000
"""An utterance's text is kept up to this many characters."""
_CHUNK = 64 * 1024
_NOISE_PREFIXES = ("<system-reminder>", "<command-", "<local-command-", "[Request interrupted")


class TranscriptRefused(ValueError):
    """The transcript is not a file Nous reads (named, with why)."""


@dataclass(frozen=True)
class Spoken:
    """One thing said in the session: who, what, when, and the transcript line it is on."""

    speaker: str
    """``user`` or ``assistant``."""
    text: str
    line: int
    """1-based line number in the transcript."""
    time: str | None
    """The line's ``timestamp`` (ISO 8601, as Claude Code wrote it), or None."""
    uuid: str | None
    """The line's ``uuid``, unique in the session: a line read twice is kept once."""


@dataclass(frozen=True)
class TranscriptRead:
    """What one read found, and where the next read starts."""

    spoken: tuple[Spoken, ...]
    offset: int
    """The byte offset after the last whole line read."""
    line: int
    """How many lines lie before ``offset``."""
    skipped: int
    """Lines passed over as not Claude Code's JSONL (too long, not JSON, not an object)."""


@dataclass(frozen=True)
class SentTranscript:
    """A transcript's bytes from ``offset`` on, as a hook sent them to the team server: read
    there as the file would be, and no path is ever opened for them."""

    offset: int
    data: bytes

    def read(
        self, offset: int, line: int, *, max_line_bytes: int = MAX_LINE_BYTES
    ) -> TranscriptRead:
        """The utterances of the bytes sent, which must start where the session's read is."""
        if offset != self.offset:
            raise TranscriptRefused(
                f"transcript sent from byte {self.offset}, the session's read is at {offset}"
            )
        handle = io.BytesIO(self.data)
        return _scan(handle, offset, line, len(self.data), max_line_bytes)


def read_transcript(
    path: str | Path,
    offset: int = 0,
    line: int = 0,
    *,
    max_bytes: int = MAX_READ_BYTES,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> TranscriptRead:
    """The utterances of ``path`` from byte ``offset`` (``line`` lines already before it).

    Raises :class:`TranscriptRefused` for a file that is not a regular file of
    this user, or one that cannot be opened. A file now shorter than
    ``offset`` was replaced: it is read from its start.
    """
    fd = _open_own_regular(Path(path))
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if offset > size or offset < 0:
            offset, line = 0, 0
        handle.seek(offset)
        return _scan(handle, offset, line, max_bytes, max_line_bytes)


def _open_own_regular(path: Path) -> int:
    # O_NOFOLLOW: a symlink is refused by the open itself; O_NONBLOCK: a FIFO never blocks
    # the open; the checks on the open descriptor leave no window between check and use.
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise TranscriptRefused(f"transcript {path}: cannot open ({exc.strerror})") from None
    info = os.fstat(fd)
    why = None
    if not stat.S_ISREG(info.st_mode):
        why = "not a regular file"
    elif hasattr(os, "getuid") and info.st_uid != os.getuid():
        why = "not this user's file"
    if why is not None:
        os.close(fd)
        raise TranscriptRefused(f"transcript {path}: {why}")
    return fd


def _scan(
    handle: Any, offset: int, line: int, max_bytes: int, max_line_bytes: int
) -> TranscriptRead:
    spoken: list[Spoken] = []
    skipped = 0
    pending = b""
    oversized = False  # inside a line already too long: its bytes are dropped until its end
    consumed = 0  # bytes up to the end of the last whole line
    taken = 0
    while taken < max_bytes:
        chunk = handle.read(min(_CHUNK, max_bytes - taken))
        if not chunk:
            break
        taken += len(chunk)
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            piece = chunk[start:end]
            start = end + 1
            line += 1
            if oversized or len(pending) + len(piece) > max_line_bytes:
                skipped += 1
            else:
                said = _utterances(pending + piece, line)
                if said is None:
                    skipped += 1
                else:
                    spoken.extend(said)
            pending, oversized = b"", False
            consumed = taken - len(chunk) + start
        rest = chunk[start:]
        if oversized or len(pending) + len(rest) > max_line_bytes:
            pending, oversized = b"", True
        else:
            pending += rest
    if oversized and taken >= max_bytes:
        consumed = taken  # a line longer than a whole read: drop what was read of it
    return TranscriptRead(tuple(spoken), offset + consumed, line, skipped)


def _utterances(raw: bytes, line: int) -> list[Spoken] | None:
    """The utterances of one line ([] for a valid line that holds none); None if not JSONL."""
    if not raw.strip():
        return []
    try:
        entry = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        return None
    kind = entry["type"]
    message = entry.get("message")
    if kind not in ("user", "assistant") or not isinstance(message, dict):
        return []
    if entry.get("isSidechain") is True or entry.get("isMeta") is True:
        return []
    text = _text_of(message.get("content"), user=kind == "user")
    if not text:
        return []
    time = entry.get("timestamp")
    uuid = entry.get("uuid")
    return [
        Spoken(
            speaker=kind,
            text=text[:MAX_TEXT_CHARS],
            line=line,
            time=time if isinstance(time, str) else None,
            uuid=uuid if isinstance(uuid, str) and len(uuid) <= 128 else None,
        )
    ]


def _text_of(content: object, *, user: bool) -> str:
    """The words of a message's content: a string, or its ``text`` blocks (a user line made of
    ``tool_result`` blocks holds none); the CLI's own reminders and command echoes left out."""
    if isinstance(content, str):
        parts = [content]
    elif isinstance(content, list):
        if user and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return ""
        parts = [
            b["text"]
            for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        ]
    else:
        return ""
    kept = [p.strip() for p in parts if p.strip() and not p.lstrip().startswith(_NOISE_PREFIXES)]
    return "\n\n".join(kept)
