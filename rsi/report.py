"""Measure (seed 003 M1-M5): the figures of self-improvement, overall and per cycle window.

For the whole history and for each of the latest cycles (from its start to
the next cycle's): the activation rate (desires accepted / processed), how
many cycles practiced (and of those, how many on a bootstrap desire) and why
the others did not, the candidates trialled, activated and rejected, the
rejection reasons, practice success by domain and difficulty, heuristics
crystallized and pruned, clarifications waiting, and the direction variance
the cycles recorded (part 1's networkx communities). Then every heuristic,
candidate, active, rejected and pruned, with its usage and helpful/harmful
counters and its trial's verdict.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from graph.models import HeuristicStatus
from graph.store.heuristics import HeuristicStore
from graph.store.rows.rsi import HeuristicSummary


@dataclass(frozen=True)
class PracticeRate:
    """Practice in one domain and difficulty, with its success rate."""

    domain: str
    difficulty: str
    attempts: int
    successes: int
    success_rate: float


@dataclass
class Window:
    """The figures of one window: ``since`` to ``until`` (None: open-ended)."""

    label: str
    since: datetime | None
    until: datetime | None
    cycles: int
    processed: int
    accepted: int
    rejected: int
    practiced: int
    succeeded: int
    practicing: int
    bootstrap: int
    not_practiced: dict[str, int]
    trials: int
    activated: int
    rejected_heuristics: int
    activation_rate: float | None
    rejection_reasons: dict[str, int]
    practice: list[PracticeRate]
    crystallized: int
    pruned: int
    clarifications_waiting: int
    direction_variance: float | None


@dataclass
class Report:
    """Everything ``python -m rsi report`` prints."""

    agent_id: str
    overall: Window
    windows: list[Window] = field(default_factory=list)
    heuristics: list[HeuristicSummary] = field(default_factory=list)

    @property
    def active(self) -> int:
        """Active heuristics."""
        return self.count(HeuristicStatus.ACTIVE)

    @property
    def pruned(self) -> int:
        """Pruned heuristics."""
        return self.count(HeuristicStatus.PRUNED)

    def count(self, status: str) -> int:
        """Heuristics in ``status``."""
        return sum(1 for h in self.heuristics if h.status == status)

    def as_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (times as ISO strings)."""
        data = _plain(asdict(self))
        for status in HeuristicStatus:
            data[f"heuristics_{status}"] = self.count(status)
        return dict(data)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


async def build_report(store: HeuristicStore, *, cycles: int = 5) -> Report:
    """Read the figures: overall, then one window per each of the latest ``cycles`` cycles."""
    overall = await _window(store, "overall", None, None)
    recent = list(reversed(await store.recent_cycles(cycles))) if cycles > 0 else []
    windows = []
    for i, cycle in enumerate(recent):
        until = recent[i + 1].at if i + 1 < len(recent) else None
        windows.append(await _window(store, f"cycle {cycle.id}", cycle.at, until))
    return Report(store.agent_id, overall, windows, await store.all_heuristics())


async def _window(
    store: HeuristicStore, label: str, since: datetime | None, until: datetime | None
) -> Window:
    row = await store.report_window(since, until)
    c = row.cycles
    return Window(
        label=label,
        since=since,
        until=until,
        cycles=c.count,
        processed=c.processed,
        accepted=c.accepted,
        rejected=c.rejected,
        practiced=c.practiced,
        succeeded=c.succeeded,
        practicing=c.practicing,
        bootstrap=c.bootstrap,
        not_practiced=row.not_practiced,
        trials=c.trials,
        activated=c.activated,
        rejected_heuristics=c.rejected_heuristics,
        activation_rate=round(c.accepted / c.processed, 4) if c.processed else None,
        rejection_reasons=row.rejections,
        practice=[
            PracticeRate(
                p.domain, p.difficulty, p.attempts, p.successes, round(p.successes / p.attempts, 4)
            )
            for p in row.practice
        ],
        crystallized=row.crystallized,
        pruned=row.pruned,
        clarifications_waiting=row.clarifications,
        direction_variance=round(c.variance, 4) if c.variance is not None else None,
    )


def format_report(report: Report) -> str:
    """The report as text for a person."""
    lines = [f"rsi report for agent '{report.agent_id}'", ""]
    for window in [report.overall, *report.windows]:
        lines += _format_window(window)
    counts = ", ".join(f"{report.count(s)} {s.value}" for s in HeuristicStatus)
    lines.append(f"heuristics: {counts}")
    for h in report.heuristics:
        why = f" ({h.prune_reason})" if h.status == HeuristicStatus.PRUNED else ""
        why += f" ({h.trial_summary})" if h.trial_summary else ""
        lines.append(
            f"  [{h.status}{why}] {h.domain}: {h.content}"
            f" | used {h.usage_count}, helpful {h.helpful}, harmful {h.harmful},"
            f" confirmed {h.confirmations} | {h.id}"
        )
    return "\n".join(lines)


def _format_window(w: Window) -> list[str]:
    rate = f"{w.activation_rate:.1%}" if w.activation_rate is not None else "n/a"
    since = w.since.isoformat(timespec="seconds") if w.since else "start"
    until = w.until.isoformat(timespec="seconds") if w.until else "now"
    variance = f"{w.direction_variance:.3f} bits" if w.direction_variance is not None else "n/a"
    lines = [
        f"{w.label} ({since} .. {until}): {w.cycles} cycles",
        f"  activation rate: {rate} ({w.accepted} accepted / {w.processed} processed)",
        f"  practiced in {w.practicing} of {w.cycles} cycles ({w.bootstrap} on a bootstrap desire)",
        "  not practiced: " + (", ".join(f"{k} {v}" for k, v in w.not_practiced.items()) or "none"),
        "  rejection reasons: "
        + (", ".join(f"{k} {v}" for k, v in w.rejection_reasons.items()) or "none"),
        "  practice:" + ("" if w.practice else " none"),
    ]
    lines += [
        f"    {p.domain}/{p.difficulty}: {p.successes}/{p.attempts} ({p.success_rate:.0%})"
        for p in w.practice
    ]
    lines += [
        f"  heuristics crystallized {w.crystallized}, pruned {w.pruned}; trials {w.trials}"
        f" ({w.activated} made active, {w.rejected_heuristics} rejected)",
        f"  direction variance: {variance}",
        f"  clarifications waiting: {w.clarifications_waiting}",
        "",
    ]
    return lines
