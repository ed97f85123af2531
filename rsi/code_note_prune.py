"""Pruning the code notes (issue 25): notes earn their place as cases do.

:func:`choose_note_prunes` is pure. In order:

1. **harmful**: ``harmful`` exceeds ``helpful`` by ``code_notes.prune_harm_margin``
   or more (a note the attempts that saw it failed after more often than not);
2. **unused**: older than ``code_notes.prune_min_age_days`` and never shown;
3. **over_cap**: while more than ``code_notes.max_notes`` remain, the least
   valuable go: net credit, then times seen, then uses, the older first.

Repeats never become two notes (a note's key is counted on the one kept), so
there is nothing to merge. Retired notes keep their node (status ``retired``,
when and why).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from graph.models import CodeNote
from graph.settings import CodeNoteSettings
from graph.store.code_notes import CodeNoteStore

SECONDS_PER_DAY = 86400.0


@dataclass(frozen=True)
class NoteBank:
    """One agent's code notes and the settings that prune them."""

    store: CodeNoteStore
    settings: CodeNoteSettings


def _value(note: CodeNote) -> tuple[int, int, int, float]:
    return (note.helpful - note.harmful, note.seen, note.uses, note.at.timestamp())


def choose_note_prunes(
    notes: Sequence[CodeNote], settings: CodeNoteSettings, now: datetime
) -> list[tuple[str, str]]:
    """The active notes to retire now, each ``(id, reason)`` (pure: no I/O)."""
    retire: list[tuple[str, str]] = []
    kept: list[CodeNote] = []
    for note in sorted(notes, key=lambda n: (n.at, n.id)):
        age = max((now - note.at).total_seconds() / SECONDS_PER_DAY, 0.0)
        if note.harmful - note.helpful >= settings.prune_harm_margin:
            retire.append((note.id, "harmful"))
        elif note.uses == 0 and age > settings.prune_min_age_days:
            retire.append((note.id, "unused"))
        else:
            kept.append(note)
    excess = len(kept) - settings.max_notes
    if excess > 0:
        retire.extend(
            (n.id, "over_cap") for n in sorted(kept, key=lambda n: (_value(n), n.id))[:excess]
        )
    return retire


async def prune_code_notes(bank: NoteBank, now: datetime) -> list[tuple[str, str]]:
    """Apply :func:`choose_note_prunes` to the agent's notes; return what was retired."""
    chosen = choose_note_prunes(await bank.store.active(), bank.settings, now)
    done = set(await bank.store.retire(chosen))
    return [(i, r) for i, r in chosen if i in done]
