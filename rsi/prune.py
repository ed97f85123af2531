"""Prune (seed 003 C5, C7): retire the heuristics that do not earn their place in every prompt.

Three rules, in order, over the active set:

1. **harmful**: ``harmful`` exceeds ``helpful`` by ``rsi.prune_harm_margin``
   or more, whatever the heuristic's age (ACE's counters);
2. **unused**: older than ``rsi.prune_min_age_days`` (from the node's ``at``)
   and used fewer than ``rsi.prune_min_usage`` times;
3. **over_cap**: while more than ``rsi.max_heuristics`` remain, the least
   valuable go: usage per day of age, then helpful - harmful, the older first
   among equals.

Retiring sets ``status: pruned``, ``pruned_at`` and ``prune_reason`` and links
the heuristic ``PRUNED_IN`` the cycle or job run; nothing is deleted, so the
audit trail and the trajectories stay whole. :func:`choose_prunes` is pure, so
pruning twice at the same moment retires nothing the second time.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from cognition.cases import CaseBank
from graph.models import Heuristic, HeuristicStatus, new_id, utc_now
from graph.settings import RSISettings
from graph.store.events import EventStore
from graph.store.heuristics import HeuristicStore, PruneOrder
from rsi.case_prune import CasePrunes, prune_cases
from rsi.code_note_prune import NoteBank, prune_code_notes
from rsi.heuristic_stage import HeuristicStage

log = logging.getLogger(__name__)

SECONDS_PER_DAY = 86400.0


@dataclass(frozen=True)
class PruneChoice:
    """One heuristic to retire, the rule that retires it, and the figures behind it."""

    heuristic: Heuristic
    reason: str
    detail: str


def age_days(h: Heuristic, now: datetime) -> float:
    """Days since the heuristic was created (its ``at``)."""
    return max((now - h.at).total_seconds() / SECONDS_PER_DAY, 0.0)


def keep_value(h: Heuristic, now: datetime) -> tuple[float, int, float]:
    """What the cap keeps by: usage per day of age, then net credit; the newer wins a tie."""
    return (h.usage_count / (age_days(h, now) + 1.0), h.helpful - h.harmful, h.at.timestamp())


def choose_prunes(
    heuristics: Sequence[Heuristic], settings: RSISettings, now: datetime
) -> list[PruneChoice]:
    """The active heuristics to retire now, each with its reason (pure: no I/O)."""
    chosen: list[PruneChoice] = []
    kept: list[Heuristic] = []
    for h in heuristics:
        if h.status != HeuristicStatus.ACTIVE:
            continue
        net_harm = h.harmful - h.helpful
        age = age_days(h, now)
        if net_harm >= settings.prune_harm_margin:
            detail = (
                f"harmful {h.harmful} exceeds helpful {h.helpful} by {net_harm} "
                f"(margin {settings.prune_harm_margin})"
            )
            chosen.append(PruneChoice(h, "harmful", detail))
        elif age > settings.prune_min_age_days and h.usage_count < settings.prune_min_usage:
            detail = (
                f"{age:.1f} days old (minimum {settings.prune_min_age_days:g}), used "
                f"{h.usage_count} times (fewer than {settings.prune_min_usage})"
            )
            chosen.append(PruneChoice(h, "unused", detail))
        else:
            kept.append(h)
    excess = len(kept) - settings.max_heuristics
    if excess > 0:
        ranked = sorted(kept, key=lambda h: (keep_value(h, now), h.id))
        for h in ranked[:excess]:
            per_day = keep_value(h, now)[0]
            detail = (
                f"over the cap of {settings.max_heuristics}: {per_day:.2f} uses per day, "
                f"net credit {h.helpful - h.harmful}"
            )
            chosen.append(PruneChoice(h, "over_cap", detail))
    return chosen


@dataclass
class PruneReport:
    """What one prune run retired, and the size of the active set before and after."""

    run_id: str
    active_before: int
    choices: list[PruneChoice] = field(default_factory=list)
    pruned_ids: list[str] = field(default_factory=list)
    cases: CasePrunes = field(default_factory=CasePrunes)
    code_notes: list[tuple[str, str]] = field(default_factory=list)

    @property
    def active_after(self) -> int:
        """Active heuristics left."""
        return self.active_before - len(self.pruned_ids)


class Pruner(HeuristicStage):
    """Applies :func:`choose_prunes` to one agent's graph; the daily job and the CLI call it.

    ``on_change`` runs after the active set changed (the strategy book's
    refresh, which writes the strategies files). With ``cases``, the case bank
    is pruned in the same run (:mod:`rsi.case_prune`), and with ``code_notes`` the
    code notes (:mod:`rsi.code_note_prune`).
    """

    def __init__(
        self,
        store: HeuristicStore,
        events: EventStore,
        settings: RSISettings,
        *,
        on_change: Callable[[], Awaitable[object]] | None = None,
        cases: CaseBank | None = None,
        code_notes: NoteBank | None = None,
    ) -> None:
        super().__init__(store, events, settings, on_change=on_change)
        self.cases = cases
        self.code_notes = code_notes

    async def run(self, *, cycle_id: str | None = None, now: datetime | None = None) -> PruneReport:
        """Retire what the rules say, ``PRUNED_IN`` ``cycle_id`` or a new job run."""
        at = now if now is not None else utc_now()
        active = await self.store.active()
        choices = choose_prunes(active, self.settings, at)
        report = PruneReport(run_id=cycle_id or new_id(), active_before=len(active))
        report.choices = choices
        orders = [PruneOrder(c.heuristic.id, c.reason) for c in choices]
        report.pruned_ids = await self.store.prune(orders, run_id=report.run_id, now=at)
        if self.cases is not None:
            report.cases = await prune_cases(self.cases, at)
        if self.code_notes is not None:
            report.code_notes = await prune_code_notes(self.code_notes, at)
        if report.pruned_ids:
            done = set(report.pruned_ids)
            await self.events.emit(
                "rsi_heuristics_pruned",
                {
                    "run_id": report.run_id,
                    "pruned": [
                        {"id": c.heuristic.id, "reason": c.reason, "detail": c.detail}
                        for c in choices
                        if c.heuristic.id in done
                    ],
                    "active_after": report.active_after,
                },
            )
            log.info("pruned %d heuristics (%d active left)", len(done), report.active_after)
            await self._active_set_changed()
        return report


def format_prune(report: PruneReport) -> str:
    """What was retired and why, one line each, then the active count."""
    done = set(report.pruned_ids)
    lines = [
        f"retired {c.heuristic.id} [{c.heuristic.domain}] {c.reason}: {c.detail}\n"
        f"  {c.heuristic.content}"
        for c in report.choices
        if c.heuristic.id in done
    ]
    if not lines:
        lines.append("nothing to retire")
    lines.append(
        f"{len(done)} retired; {report.active_after} active heuristics (run {report.run_id})"
    )
    if report.cases.retire or report.cases.merge:
        lines.append(f"cases: {len(report.cases.retire)} retired, {len(report.cases.merge)} merged")
    if report.code_notes:
        lines.append(f"code notes: {len(report.code_notes)} retired")
    return "\n".join(lines)
