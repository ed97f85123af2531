"""Rows of ``learn/superseded_chain``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SupersededDecision:
    """A WAIT or INVESTIGATE decision a later one superseded, not yet learned from."""

    id: str
    pattern_key: str | None
    confidence: float
