"""The rows of the statements that say how the templates' runs went (``nous status``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class LastRun:
    """A template's latest execution (``audit/last_runs``)."""

    template: str
    execution_id: str
    decision_id: str | None = None
    at: datetime | None = None
    ended_at: datetime | None = None
    success: bool | None = None
    dry_run: bool = False
    error: str | None = None
    failure_type: str | None = None


@dataclass(frozen=True)
class DeferredActions:
    """Actions the budget deferred; when the first is tried again (``audit/deferred_actions``)."""

    deferred: int = 0
    next_try: datetime | None = None
