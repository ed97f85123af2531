"""Claude Code transcripts as read by the hooks: the access layer for ``cypher/transcripts/``.

Each session's transcript is read a piece at a time (at ``Stop``,
``PreCompact`` and ``SessionEnd``); where the last read stopped is the
session's ``Transcript`` node, and what was said is one ``Utterance`` per
line of text, ``IN_TURN`` the turn it belongs to (issue 58).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from graph.ids import utc_now
from graph.store.agent_graph import AgentGraph
from graph.store.driver import Row

_PROMPT_HEAD = 200
"""How much of a prompt finds its turn: Turn.prompt holds a clipped prompt's start."""


@dataclass(frozen=True)
class TranscriptCursor:
    """Where the last read of a session's transcript stopped."""

    offset: int = 0
    line: int = 0
    skipped: int = 0
    path: str | None = None


@dataclass(frozen=True)
class NewUtterance:
    """One thing said, to keep: ``prompt`` is the user's text that opened its exchange (the
    turn it belongs to), or None for the session's latest turn."""

    speaker: str
    text: str
    line: int
    time: str | None
    prompt: str | None


@dataclass(frozen=True)
class Utterance:
    """One kept utterance of a session, and the turn it belongs to."""

    id: str
    speaker: str
    text: str
    line: int
    time: str | None
    session_id: str
    turn_id: str | None


def _turn_of(prompt: str | None, turns: Sequence[Row]) -> str | None:
    """The newest of ``turns`` (newest first) whose prompt begins as ``prompt`` does."""
    if not turns:
        return None
    if prompt is None:
        return str(turns[0]["id"])
    head = prompt.strip()[:_PROMPT_HEAD]
    for turn in turns:
        if str(turn["prompt"] or "").strip()[:_PROMPT_HEAD] == head:
            return str(turn["id"])
    return None


class TranscriptStore:
    """One agent's transcripts: the read cursor of each session and what was said."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def cursor(self, session_id: str) -> TranscriptCursor:
        """Where the last read of ``session_id``'s transcript stopped (its start if never)."""
        rows = await self.graph.read("transcripts/cursor", session_id=session_id)
        if not rows:
            return TranscriptCursor()
        row = rows[0]
        return TranscriptCursor(
            int(row["offset"] or 0), int(row["line"] or 0), int(row["skipped"] or 0), row["path"]
        )

    async def record(
        self,
        session_id: str,
        said: Sequence[NewUtterance],
        cursor: TranscriptCursor,
        *,
        skipped: int = 0,
    ) -> list[str]:
        """Keep ``said`` and move the session's cursor to ``cursor`` (``skipped``: lines this read
        passed over); the ids of the utterances (the same line always gets the same id).

        Each utterance goes IN_TURN the latest turn of the session whose prompt starts as its
        exchange's prompt does (the session's latest turn when it has none)."""
        turns = await self.graph.read("transcripts/session_turns", session_id=session_id, limit=500)
        rows = [
            {
                "id": self.utterance_id(session_id, s.line),
                "speaker": s.speaker,
                "text": s.text,
                "line": s.line,
                "time": s.time,
                "turn_id": _turn_of(s.prompt, turns),
            }
            for s in said
        ]
        await self.graph.write(
            "transcripts/record",
            session_id=session_id,
            path=cursor.path,
            offset=cursor.offset,
            line=cursor.line,
            skipped=skipped,
            now=utc_now(),
            rows=rows,
        )
        return [str(r["id"]) for r in rows]

    async def session_utterances(self, session_id: str, limit: int = 1000) -> list[Utterance]:
        """What was said in ``session_id``, in transcript order."""
        rows = await self.graph.read(
            "transcripts/session_utterances", session_id=session_id, limit=limit
        )
        return [
            Utterance(
                id=str(u["id"]),
                speaker=str(u["speaker"]),
                text=str(u["text"]),
                line=int(u["line"]),
                time=u.get("time"),
                session_id=session_id,
                turn_id=r["turn_id"],
            )
            for r in rows
            for u in (r["utterance"],)
        ]

    def utterance_id(self, session_id: str, line: int) -> str:
        """The id of the utterance on ``line`` of ``session_id``'s transcript, for this agent."""
        return str(
            uuid.uuid5(uuid.NAMESPACE_URL, f"nous:{self.graph.agent_id}:{session_id}:{line}")
        )
