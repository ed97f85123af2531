"""What the replay prints: changes against observations, decisions per observation, lag, logs.

Figures come from the graph (``cypher/bench/replay_*.cypher``), the changes
the replay made, the daemon's log and its resident set size; nothing here
talks to Neo4j or to the daemon.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.common import percentile, verdict
from bench.replay_execute import RunTimes
from bench.replay_source import Change

OBSERVED_TYPE = {"created": "file_created", "modified": "file_modified", "deleted": "file_deleted"}
# "2026-11-26 17:00:00,123 INFO name: message" (scheduler.logs.LOG_FORMAT)
_LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ ([A-Z]+) ")


@dataclass(frozen=True)
class Release:
    """One release written over the root, and the actions it started."""

    version: str
    changes: list[Change]
    runs: Counter[str]
    """ACT decisions (one run each) by template."""
    per_file: Counter[str]
    """The changes those runs considered by template: runs, had each change run alone."""


@dataclass
class Replay:
    """Everything one replay measured."""

    changes: list[Change]
    observations: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    log: str
    rss_kb: dict[str, int | None] = field(default_factory=dict)
    quiet_decisions: int = 0
    """Decisions made while nothing changed, after the last version had been decided."""
    baseline: int = 0
    """Files of the first version, there before the daemon started."""
    releases: list[Release] = field(default_factory=list)
    run_times: RunTimes | None = None
    """With ``--execute``: the runs' times; None in a dry run (runs counted, not timed)."""


@dataclass(frozen=True)
class Matching:
    """Changes against file observations, by (path, change)."""

    once: int
    missing: int
    extra: int
    examples: list[str]


def match(changes: Sequence[Change], observations: Sequence[Mapping[str, Any]]) -> Matching:
    """How many changes were observed once, not at all, or more than once."""
    made = Counter((c.path, OBSERVED_TYPE[c.kind]) for c in changes)
    seen = Counter((str(o["path"]), str(o["type"])) for o in observations)
    once = sum(min(n, seen[key]) for key, n in made.items())
    missing = sum(max(0, n - seen[key]) for key, n in made.items())
    extra = sum(max(0, n - made[key]) for key, n in seen.items())
    examples = [f"missing {t} {p}" for (p, t), n in made.items() if seen[(p, t)] < n][:5]
    examples += [f"extra {t} {p}" for (p, t), n in seen.items() if made[(p, t)] < n][:5]
    return Matching(once, missing, extra, examples)


def log_levels(log: str) -> Counter[str]:
    """Log lines by level; lines of no level (tracebacks, the banner, status) as ``other``."""
    levels: Counter[str] = Counter()
    for line in log.splitlines():
        found = _LOG_LINE.match(line)
        levels[found.group(1) if found else "other"] += 1
    return levels


def report(replay: Replay) -> bool:
    """Print the figures and the issue's checks; True when every check passes."""
    changes, observations, decisions = replay.changes, replay.observations, replay.decisions
    kinds = Counter(c.kind for c in changes)
    print(f"changes made: {len(changes)} ({_counts(kinds)}) in {len({c.version for c in changes})}"
          " versions")  # fmt: skip
    matched = match(changes, observations)
    print(f"file observations: {len(observations)}; changes observed once {matched.once},"
          f" never {matched.missing}, more than once {matched.extra}")  # fmt: skip
    for line in matched.examples:
        print(f"  {line}")
    per = max(1, len(observations))
    by_kind = Counter((str(d["type"]), str(d["template"] or "-")) for d in decisions)
    print(f"decisions: {len(decisions)} = {len(decisions) / per:.2f} per observation")
    for (kind, template), n in sorted(by_kind.items()):
        print(f"  {kind:<12} {template:<32} {n:>6}  {n / per:.3f} per observation")
    considered = sum(int(d["considered"]) for d in decisions)
    print(f"CONSIDERED edges: {considered} = {considered / per:.2f} per observation")
    idle = [d for d in decisions if d["redecided"] and d["new_considered"] == 0]
    print(f"re-decisions: {sum(1 for d in decisions if d['redecided'])},"
          f" of which found nothing new: {len(idle)}; decisions while nothing changed:"
          f" {replay.quiet_decisions}")  # fmt: skip
    _by_category(observations, decisions)
    not_acting = Counter(str(d["path"]) for d in decisions if d["type"] != "act")
    over = sorted(((n, p) for p, n in not_acting.items() if n > 1), reverse=True)
    print(f"files with more than one decision that does not act: {len(over)}"
          + (f" (most: {over[0][1]}, {over[0][0]})" if over else ""))  # fmt: skip
    changed = Counter(c.path for c in changes)
    beyond = [p for p, n in not_acting.items() if n > changed[p]]
    print(f"files with more decisions that do not act than changes: {len(beyond)}")
    lags = [float(o["lag_ms"]) for o in observations if o["lag_ms"] is not None]
    undecided = len(observations) - len(lags)
    if lags:
        p50, p95 = percentile(lags, 50) / 1000, percentile(lags, 95) / 1000
        print(f"decision lag: p50 {p50:.1f} s, p95 {p95:.1f} s ({undecided} undecided)")
    for name, value in replay.rss_kb.items():
        print(f"daemon RSS {name}: {value} KB")
    print(f"log lines by level: {_counts(log_levels(replay.log))}")
    most = _runs_per_release(replay)
    if replay.run_times is not None:
        replay.run_times.print()
    ok = _checks(matched, len(observations), considered, idle, over)
    print(
        f"{verdict(most <= 1)}  at most one run of each command per release written (most {most})"
    )
    return ok and most <= 1


def _runs_per_release(replay: Replay) -> int:
    """Print each release's runs by template against one run per change; the most of one
    template in one release."""
    print(f"baseline: {replay.baseline} files of the first version, acted on by nothing")
    most = 0
    total_runs = total_alone = 0
    for release in replay.releases:
        parts = [
            f"{name} {n} (alone {release.per_file[name]})"
            for name, n in sorted(release.runs.items())
        ]
        print(f"  release {release.version}: {len(release.changes)} changes; runs: "
              + (", ".join(parts) or "none"))  # fmt: skip
        most = max([most, *release.runs.values()])
        total_runs += sum(release.runs.values())
        total_alone += sum(release.per_file.values())
    ratio = total_runs / total_alone if total_alone else 0.0
    print(f"runs: {total_runs}; one run per changed file would have been {total_alone}"
          f" ({ratio:.2f}x)")  # fmt: skip
    return most


def _by_category(
    observations: Sequence[Mapping[str, Any]], decisions: Sequence[Mapping[str, Any]]
) -> None:
    """Decisions by the category of the file they were about, and by type and template."""
    category = {str(o["path"]): str(o["category"]) for o in observations}
    table = Counter(
        (category.get(str(d["path"]), "-"), str(d["type"]), str(d["template"] or "-"))
        for d in decisions
    )
    print("decisions by file category:")
    for (kind, decided, template), n in sorted(table.items()):
        print(f"  {kind:<10} {decided:<12} {template:<32} {n:>6}")


def _checks(
    matched: Matching, observations: int, considered: int, idle: list[Any], over: list[Any]
) -> bool:
    checks = [
        (matched.missing == 0 and matched.extra == 0, "every change observed once"),
        (considered <= 1.5 * max(1, observations), "CONSIDERED edges at most 1.5 per observation"),
        (not idle, "no decision from a re-check that found nothing new"),
        (not over, "at most one decision that does not act per changed file"),
    ]
    for ok, text in checks:
        print(f"{verdict(ok)}  {text}")
    return all(ok for ok, _ in checks)


def _counts(counter: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {name}" for name, n in sorted(counter.items())) or "none"
