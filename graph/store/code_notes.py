"""Code notes written and read: the access layer for ``cypher/code_notes/`` (issue 25).

A note is written once, ``FROM`` the turn it came from; a repeat (the same
key) is counted on the note already kept. Recall asks for one agent's active
notes about the names a prompt holds; each use is credited; the pruner and a
contradicting pass retire, never deleting a node.
"""

from __future__ import annotations

from collections.abc import Sequence

from graph.models import CodeNote, utc_now
from graph.store.credited import CreditedBank
from graph.store.mapping import from_properties, to_properties


class CodeNoteStore(CreditedBank):
    """One agent's code notes."""

    folder = "code_notes"

    async def record(
        self, note: CodeNote, *, turn_id: str | None = None, episode_id: str | None = None
    ) -> str:
        """Write ``note``, FROM ``turn_id`` and IN_EPISODE ``episode_id`` (when they are the
        agent's); return its id."""
        rows = await self.graph.write(
            "code_notes/record", note=to_properties(note), turn_id=turn_id, episode_id=episode_id
        )
        return str(rows[0]["id"])

    async def repeat(self, note: CodeNote) -> str | None:
        """Count ``note`` on the active note with its key; that note's id, or None if none."""
        rows = await self.graph.write(
            "code_notes/repeat",
            key=note.key,
            call=note.call,
            text=note.text,
            task=note.task,
            now=utc_now(),
        )
        return str(rows[0]["id"]) if rows else None

    async def about(self, names: Sequence[str], limit: int = 200) -> list[CodeNote]:
        """Active notes about any of ``names``, newest first."""
        if not names or limit <= 0:
            return []
        rows = await self.graph.read(
            "code_notes/by_names", names=list(dict.fromkeys(names)), limit=limit
        )
        return [self._note(r["note"]) for r in rows]

    async def active(self, limit: int = 10_000) -> list[CodeNote]:
        """Every active note, oldest first."""
        rows = await self.graph.read("code_notes/active", limit=limit)
        return [self._note(r["note"]) for r in rows]

    def _note(self, properties: dict[str, object]) -> CodeNote:
        return from_properties(CodeNote, properties, agent_id=self.agent_id)
