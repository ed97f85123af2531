"""The soak's exactly-once count: every change event the churn made, against the observations.

Counting observations against changes in total cannot say "exactly once": a
lost change and a change recorded twice cancel out, and the rescan after a
restart records the state a file reached, not the events that led there. So
the churn logs each change (wall time, path, kind, and for a write the
SHA-256 of the content it left, unique because every round's first line
names the round), and each file observation in the graph is matched to the
change it describes:

* a created or modified observation by (path, content hash): the one change
  that left that content;
* a deleted observation to the latest deletion of that path made before the
  observation was (the deletions of one path are four rounds apart).

Each change is then observed once, more than once (a duplicate) or never (a
loss), and each is placed in the daemon's life: made while it ran, made in
the last second before the SIGKILL (still in watchfiles' debounce buffer,
never handed to Python: no spool can hold it; the restart's rescan records
the state it left), or made while the daemon was down (from the SIGKILL
until the restarted daemon's start-up rescan had run; the rescan records the
latest state of each file, not every event).
"""

from __future__ import annotations

import bisect
import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# Changes this close before the SIGKILL had not left watchfiles' debounce (500 ms) and step.
IN_FLIGHT_S = 1.0


@dataclass(frozen=True)
class Change:
    """One change the churn made."""

    at: float  # time.time() just before the change was made
    path: str
    kind: str  # write | delete
    content_hash: str | None = None


@dataclass
class ChangeLog:
    """Every change the churn made, and when the daemon could not see them."""

    changes: list[Change] = field(default_factory=list)
    kill_at: float | None = None
    back_at: float | None = None  # the restarted daemon's start-up rescan has run

    def write(self, at: float, path: str, content: str) -> None:
        """A file was written (created, or appended to) and now holds ``content``."""
        digest = hashlib.sha256(content.encode()).hexdigest()
        self.changes.append(Change(at, path, "write", digest))

    def delete(self, at: float, path: str) -> None:
        """A file was deleted."""
        self.changes.append(Change(at, path, "delete"))

    def phase(self, change: Change) -> str:
        """When the change was made: running, in flight at the kill, or down."""
        if self.kill_at is None:
            return "running"
        if self.kill_at - IN_FLIGHT_S <= change.at < self.kill_at:
            return "in flight at the SIGKILL"
        if change.at >= self.kill_at and (self.back_at is None or change.at < self.back_at):
            return "daemon down"
        return "running"


@dataclass
class Tally:
    """Per phase: changes made, observed once, more than once, never; stray observations."""

    made: Counter[str] = field(default_factory=Counter)
    once: Counter[str] = field(default_factory=Counter)
    duplicated: Counter[str] = field(default_factory=Counter)
    lost: Counter[str] = field(default_factory=Counter)
    by_source: Counter[str] = field(default_factory=Counter)
    unmatched: int = 0
    # A few examples of what went wrong, for the report: (change, its observations' rows).
    examples: list[tuple[str, Change, list[Mapping[str, Any]]]] = field(default_factory=list)


def tally(log: ChangeLog, observations: Iterable[Mapping[str, Any]]) -> Tally:
    """Match observation rows (path, type, content_hash, metadata, at) to the changes."""
    by_content: dict[tuple[str, str | None], int] = {
        (c.path, c.content_hash): i for i, c in enumerate(log.changes) if c.content_hash
    }
    deletions: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for i, c in enumerate(log.changes):
        if c.kind == "delete":
            deletions[c.path].append((c.at, i))
    seen: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    result = Tally()
    for row in observations:
        result.by_source[_source(row)] += 1
        index = _match(row, by_content, deletions)
        if index is None:
            result.unmatched += 1
        else:
            seen[index].append(row)
    for i, change in enumerate(log.changes):
        phase = log.phase(change)
        result.made[phase] += 1
        count = len(seen.get(i, ()))
        bucket = result.once if count == 1 else result.lost if count == 0 else result.duplicated
        bucket[phase] += 1
        if count != 1 and phase == "running" and len(result.examples) < 10:
            result.examples.append(("twice+" if count else "never", change, seen.get(i, [])))
    return result


def _match(
    row: Mapping[str, Any],
    by_content: Mapping[tuple[str, str | None], int],
    deletions: Mapping[str, list[tuple[float, int]]],
) -> int | None:
    if row["type"] != "file_deleted":
        return by_content.get((row["path"], row["content_hash"]))
    candidates = deletions.get(row["path"], [])
    at = _epoch(row["at"])
    position = bisect.bisect_right(candidates, (at, len(candidates) + 10**9))
    return candidates[position - 1][1] if position else None


def _source(row: Mapping[str, Any]) -> str:
    return str(json.loads(row["metadata"] or "{}").get("source", "?"))


def _epoch(value: Any) -> float:
    if isinstance(value, datetime):
        return value.timestamp()
    to_native = getattr(value, "to_native", None)  # a neo4j DateTime
    if to_native is not None:
        return float(to_native().timestamp())
    return float(value)


def report(result: Tally) -> list[str]:
    """The lines the soak prints."""
    lines = [f"{'changes made':<27}{'made':>7}{'once':>7}{'twice+':>8}{'never':>7}"]
    for phase in ("running", "in flight at the SIGKILL", "daemon down"):
        lines.append(
            f"  {phase:<25}{result.made[phase]:>7}{result.once[phase]:>7}"
            f"{result.duplicated[phase]:>8}{result.lost[phase]:>7}"
        )
    sources = ", ".join(f"{k} {v}" for k, v in sorted(result.by_source.items()))
    lines.append(f"file observations by source: {sources}; matching no change: {result.unmatched}")
    for what, change, rows in result.examples:
        seen = "; ".join(f"{r['type']} by {_source(r)} at {_epoch(r['at']):.3f}" for r in rows)
        lines.append(f"  {what} (running): {change.kind} {change.path} at {change.at:.3f}: {seen}")
    return lines
