"""Rows of ``recall/investigate``: what an investigation's questions find."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FoundText:
    """A full-text hit for the questions: a fact, lesson, episode or past decision."""

    id: str
    kind: str
    text: str


@dataclass(frozen=True)
class HistoryEntry:
    """One change of the investigated file: when (ISO text) and what kind."""

    at: str
    type: str


@dataclass(frozen=True)
class OutcomeCount:
    """How decisions of one type and template on the file's path pattern came out."""

    type: str
    template: str | None
    total: int
    successes: int


@dataclass(frozen=True)
class Investigation:
    """The one row of ``recall/investigate``: texts, file history, its companions, outcomes."""

    texts: tuple[FoundText, ...]
    history: tuple[HistoryEntry, ...]
    together: tuple[str, ...]
    outcomes: tuple[OutcomeCount, ...]

    @classmethod
    def from_record(cls, row: Mapping[str, Any]) -> Investigation:
        """The typed row from the statement's record (null history entries dropped)."""
        return cls(
            texts=tuple(
                FoundText(str(t["id"]), str(t["kind"]), str(t["text"] or "")) for t in row["texts"]
            ),
            history=tuple(HistoryEntry(str(h["at"]), str(h["type"])) for h in row["history"] if h),
            together=tuple(str(p) for p in row["together"]),
            outcomes=tuple(
                OutcomeCount(str(o["type"]), o["template"], int(o["total"]), int(o["successes"]))
                for o in row["outcomes"]
            ),
        )
