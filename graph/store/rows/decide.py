"""What a decision's record takes besides the decision: typed, as the rows that come back are."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class TemplateUse:
    """The action template an ACT decision used: its ``ActionTemplate`` node's properties."""

    name: str
    version: int
    target: str


@dataclass(frozen=True)
class Settlement:
    """The outcome a decision is settled with when it is written (a dry run that completed)."""

    outcome: str
    outcome_at: datetime | None = None
