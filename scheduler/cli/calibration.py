"""``nous calibration``: does the agent's confidence mean what it says?

Seed 000 tracks confidence calibration through its lessons
(``confidence_too_high`` and ``confidence_too_low``); this is the report:
per confidence bucket, how many learned decisions, how many succeeded, the
success rate, and whether confidence over- or under-promises there.
"""

from __future__ import annotations

import argparse
from typing import Any

from graph.store.memory import Memory
from graph.store.rows.audit import CalibrationRow
from scheduler.cli.common import common_options, show, table, with_memory

MARGIN = 0.10
"""How far the success rate may sit from the mean confidence and still count as calibrated."""
MIN_DECISIONS = 3
"""Fewer decisions in a bucket say too little to judge it."""


def register(commands: Any) -> None:
    """Add ``nous calibration``."""
    parser = commands.add_parser(
        "calibration",
        parents=[common_options()],
        help="confidence against success, per confidence bucket",
        description="Per confidence bucket: decisions learned from, successes, success rate, "
        f"and a verdict (over- or under-promises when the success rate is more than {MARGIN:.2f}"
        f" from the mean confidence; at least {MIN_DECISIONS} decisions).",
    )
    parser.set_defaults(handler=with_memory(_calibration))


def verdict(row: CalibrationRow) -> str:
    """``over-promises``, ``under-promises``, ``calibrated``, ``too few`` or ``-`` (empty)."""
    count, rate, mean = row.count, row.success_rate, row.mean_confidence
    if not count or rate is None or mean is None:
        return "-"
    if count < MIN_DECISIONS:
        return "too few"
    if rate < mean - MARGIN:
        return "over-promises"
    if rate > mean + MARGIN:
        return "under-promises"
    return "calibrated"


async def _calibration(args: argparse.Namespace, memory: Memory) -> int:
    rows = await memory.audit.calibration()
    report = [
        {
            "bucket": f"{row.lower:.1f}-{row.upper:.1f}",
            "decisions": row.count,
            "successes": row.successes,
            "success_rate": row.success_rate,
            "mean_confidence": row.mean_confidence,
            "verdict": verdict(row),
        }
        for row in rows
    ]
    total = sum(row.count for row in rows)
    text = table(
        report,
        ["bucket", "decisions", "successes", "success_rate", "mean_confidence", "verdict"],
        empty="no buckets",
    )
    if total == 0:
        text += "\n\nno decision has been learned from yet (outcomes fill this report)"
    return show(args, report, text)
