"""What was said in a session, kept from its transcript at Stop, PreCompact and SessionEnd.

:func:`keep_transcript` reads the session's transcript from where the last
read stopped (:func:`scheduler.claude.transcript.read_transcript`: bounded,
regular files of this user only) and keeps each thing said as an
``Utterance`` ``IN_TURN`` its turn, its text through the one door first
(secrets replaced by markers naming their kind) (:class:`graph.store.transcripts.TranscriptStore`).
A transcript Nous will not read is said once on stderr (through logging) and
leaves the cursor where it was; it never fails the hook.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cognition.sense.door import admit
from graph.intake import Provenance, TranscriptEntry
from graph.store.transcripts import NewUtterance, TranscriptCursor, TranscriptStore
from scheduler.claude.transcript import (
    MAX_READ_BYTES,
    SentTranscript,
    Spoken,
    TranscriptRefused,
    read_transcript,
)

log = logging.getLogger(__name__)
TRANSCRIPT_SUFFIX = ".jsonl"


@dataclass(frozen=True)
class KeptTranscript:
    """What one read kept: the utterances (with their ids), lines skipped, where it stopped."""

    said: tuple[NewUtterance, ...]
    ids: tuple[str, ...]
    skipped: int
    cursor: TranscriptCursor


async def keep_transcript(
    store: TranscriptStore,
    session_id: str,
    transcript_path: str | None,
    *,
    max_bytes: int = MAX_READ_BYTES,
    sent: SentTranscript | None = None,
) -> KeptTranscript | None:
    """Read ``transcript_path`` on from the session's cursor and keep what was said; None when
    there is no transcript or it is not one Nous reads.

    ``sent``: the transcript's bytes as a hook sent them to the team server; they are read
    instead, and ``transcript_path`` (a file on the developer's machine) only names it.
    """
    if not transcript_path:
        return None
    if not transcript_path.endswith(TRANSCRIPT_SUFFIX):
        log.warning("transcript %s: not a .jsonl file, not read", transcript_path)
        return None
    cursor = await store.cursor(session_id)
    offset, line = cursor.offset, cursor.line
    if cursor.path is not None and cursor.path != transcript_path:
        offset, line = 0, 0  # the session's transcript moved: read the new one whole
    try:
        if sent is not None:
            read = sent.read(offset, line)
        else:
            read = read_transcript(transcript_path, offset, line, max_bytes=max_bytes)
    except TranscriptRefused as exc:
        log.warning("%s", exc)
        return None
    said = tuple(exchanges(read.spoken, session_id))
    moved = TranscriptCursor(read.offset, read.line, cursor.skipped + read.skipped, transcript_path)
    if read.offset == cursor.offset and read.line == cursor.line and not said:
        return KeptTranscript((), (), 0, moved)  # nothing new: no write
    ids = await store.record(session_id, said, moved, skipped=read.skipped)
    return KeptTranscript(said, tuple(ids), read.skipped, moved)


def exchanges(spoken: Sequence[Spoken], session_id: str = "") -> list[NewUtterance]:
    """``spoken`` as utterances to keep, each through the door first (secrets replaced by
    markers, :func:`cognition.sense.door.admit`), with the prompt that opened its exchange
    (what finds its turn; None before the first prompt of this read: the session's latest)."""
    prompt: str | None = None
    out: list[NewUtterance] = []
    for s in spoken:
        speaker: Literal["user", "assistant"] = "user" if s.speaker == "user" else "assistant"
        entry = TranscriptEntry(speaker, s.text, s.line, Provenance("transcript", session_id))
        text = admit(entry).record.text
        if speaker == "user":
            prompt = text
        out.append(NewUtterance(speaker, text, s.line, s.time, prompt))
    return out
