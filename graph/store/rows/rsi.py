"""Rows of the self-improvement report (``rsi/report_*``) and the heuristics with their trials;
what a desire's update may change."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from graph.models import DesireStatus, Heuristic, HeuristicTrial


@dataclass(frozen=True)
class HeuristicWithTrials:
    """A heuristic and its paired trials, oldest first (``rsi/heuristics_with_trials``)."""

    heuristic: Heuristic
    trials: tuple[HeuristicTrial, ...]


@dataclass(frozen=True)
class CycleMark:
    """Where an RSI cycle starts a report window (``rsi/report_cycles``)."""

    id: str
    at: datetime


@dataclass(frozen=True)
class HeuristicSummary:
    """One heuristic as the report lists it (``rsi/report_heuristics``)."""

    id: str
    domain: str
    content: str
    status: str
    usage_count: int
    helpful: int
    harmful: int
    confirmations: int
    at: datetime | None = None
    pruned_at: datetime | None = None
    prune_reason: str | None = None
    trial_summary: str | None = None

    @classmethod
    def from_record(cls, h: Mapping[str, Any]) -> HeuristicSummary:
        """The typed row from the statement's ``heuristic`` map (counters null as 0)."""
        return cls(
            id=str(h["id"]),
            domain=str(h.get("domain") or ""),
            content=str(h.get("content") or ""),
            status=str(h.get("status") or "?"),
            usage_count=int(h.get("usage_count") or 0),
            helpful=int(h.get("helpful") or 0),
            harmful=int(h.get("harmful") or 0),
            confirmations=int(h.get("confirmations") or 0),
            at=h.get("at"),
            pruned_at=h.get("pruned_at"),
            prune_reason=h.get("prune_reason"),
            trial_summary=h.get("trial_summary"),
        )


@dataclass(frozen=True)
class CycleCounts:
    """The summed counts of the cycles in a window."""

    count: int
    processed: int
    accepted: int
    rejected: int
    practiced: int
    succeeded: int
    crystallized: int
    variance: float | None
    practicing: int
    bootstrap: int
    trials: int
    activated: int
    rejected_heuristics: int


@dataclass(frozen=True)
class PracticeCount:
    """Practice attempts and successes in one domain and difficulty."""

    domain: str
    difficulty: str
    attempts: int
    successes: int


@dataclass(frozen=True)
class ReportWindowRow:
    """The one row of ``rsi/report_window``: the figures of one time window."""

    cycles: CycleCounts
    not_practiced: dict[str, int]
    rejections: dict[str, int]
    practice: tuple[PracticeCount, ...]
    crystallized: int
    pruned: int
    clarifications: int

    @classmethod
    def from_record(cls, row: Mapping[str, Any]) -> ReportWindowRow:
        """The typed row from the statement's record."""
        c = row["cycles"]
        variance = c.get("variance")
        counts = {k: int(c[k]) for k in CycleCounts.__dataclass_fields__ if k != "variance"}
        return cls(
            cycles=CycleCounts(
                **counts, variance=float(variance) if variance is not None else None
            ),
            not_practiced={str(r["reason"]): int(r["count"]) for r in row["not_practiced"]},
            rejections={str(r["reason"]): int(r["count"]) for r in row["rejections"]},
            practice=tuple(
                PracticeCount(
                    str(p["domain"]), str(p["difficulty"]), int(p["attempts"]), int(p["successes"])
                )
                for p in row["practice"]
            ),
            crystallized=int(row["crystallized"]),
            pruned=int(row["pruned"]),
            clarifications=int(row["clarifications"]),
        )


class DesireChanges(TypedDict, total=False):
    """What ``update_desire(desire_id, …)`` may change, as keyword arguments (mypy checks
    each): its routing, its status, how its practice went."""

    domain: str
    secondary_domain: str | None
    route_confidence: float | None
    routed_by: str | None
    status: DesireStatus
    practice_success: bool | None
