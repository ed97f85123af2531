"""Rows of ``learn/superseded_chain``; what a chat turn's deliberating decision carries."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SupersededDecision:
    """A WAIT or INVESTIGATE decision a later one superseded, not yet learned from."""

    id: str
    pattern_key: str | None
    confidence: float


@dataclass(frozen=True)
class TurnDecision:
    """What a Claude Code turn's deliberating decision carries beyond the ``Decision`` model:
    the session it was opened in, its stakes and tags (the frame's)."""

    session_id: str
    stakes: str
    tags: tuple[str, ...]
