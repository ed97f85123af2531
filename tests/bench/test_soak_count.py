"""The soak's exactly-once count tells a loss, a duplicate and a stray observation apart."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from bench.soak_count import ChangeLog, tally


def _row(path: str, kind: str, content: str | None, at: float, source: str) -> dict[str, object]:
    digest = hashlib.sha256(content.encode()).hexdigest() if content is not None else None
    return {
        "path": path,
        "type": kind,
        "content_hash": digest,
        "metadata": json.dumps({"source": source}),
        "at": datetime.fromtimestamp(at, UTC),
    }


def test_each_change_is_counted_once_twice_or_never_by_phase() -> None:
    log = ChangeLog()
    log.write(100.0, "n1.md", "round 0\n")  # observed once
    log.write(101.0, "n2.md", "round 0\n")  # observed twice (watcher, then rescan)
    log.delete(102.0, "n1.md")  # observed once
    log.write(103.0, "n3.md", "x\n")  # never
    log.delete(150.0, "n1.md")  # a second delete of n1: in flight at the kill, never observed
    log.write(152.0, "n4.md", "y\n")  # while down, recorded by the rescan
    log.kill_at, log.back_at = 150.5, 160.0
    rows = [
        _row("n1.md", "file_created", "round 0\n", 100.6, "watcher"),
        _row("n2.md", "file_created", "round 0\n", 101.6, "watcher"),
        _row("n2.md", "file_modified", "round 0\n", 161.0, "rescan"),
        _row("n1.md", "file_deleted", None, 102.6, "watcher"),
        _row("n4.md", "file_created", "y\n", 161.0, "rescan"),
        _row("n5.md", "file_created", "z\n", 161.0, "rescan"),  # no such change
    ]
    result = tally(log, rows)
    assert result.made == {"running": 4, "in flight at the SIGKILL": 1, "daemon down": 1}
    assert result.once == {"running": 2, "daemon down": 1}
    assert result.duplicated == {"running": 1}
    assert result.lost == {"running": 1, "in flight at the SIGKILL": 1}
    assert result.unmatched == 1 and result.by_source == {"watcher": 3, "rescan": 3}
