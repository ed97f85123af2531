"""Cases (issue 25): experience kept as it happened, recalled per task as a worked example.

A ``Case`` is one verified attempt: what was asked, what worked and, when
there was one, the attempt that failed and the error that taught it. Practice,
trials and Claude Code sessions write them (:mod:`cognition.cases`); the most
similar ones are shown before the next attempt, and each use is credited by
that attempt's outcome.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from graph.models.base import Node


class CaseSource(StrEnum):
    """Where a case was verified."""

    PRACTICE = "practice"
    TRIAL = "trial"
    SESSION = "session"


class CaseStatus(StrEnum):
    """A case's life: only ``active`` ones are recalled."""

    ACTIVE = "active"
    RETIRED = "retired"
    MERGED = "merged"


class Case(Node):
    """One verified experience (``FROM`` its trajectory or turn, ``IN_EPISODE`` its episode)."""

    domain: str
    source: CaseSource
    task: str
    worked: str
    failed_attempt: str = ""
    error: str = ""
    helpful: int = 0
    harmful: int = 0
    uses: int = 0
    last_used: datetime | None = None
    status: CaseStatus = CaseStatus.ACTIVE
    # Near-duplicates folded into this one (their credit added to its own).
    merged: int = 0
    retired_at: datetime | None = None
    retire_reason: str | None = None
