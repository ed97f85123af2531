"""The last run of each template, as ``nous status`` shows it: passed, failed (the failing
tests named), running, a dry run; and the actions queued behind the budget."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cognition.act.test_names import failing_tests
from graph.store.memory import Memory

MAX_NAMED = 5
"""Failing tests named per template; past this many, how many more."""


async def runs_report(memory: Memory) -> dict[str, Any]:
    """``{"last": [{template, state, at, failing, decision_id}, …], "deferred", "next_try"}``."""
    audit = memory.audit
    last = [
        {
            "template": run.template,
            "state": run_state(run.ended_at, run.success, run.dry_run),
            "at": run.at,
            "failing": failing_tests(run.error) if run.success is False else [],
            "decision_id": run.decision_id,
        }
        for run in await audit.last_runs()
    ]
    deferred = await audit.deferred_actions()
    return {"last": last, "deferred": deferred.deferred, "next_try": deferred.next_try}


def run_state(ended_at: datetime | None, success: bool | None, dry_run: bool) -> str:
    """``running``, ``dry run``, ``passed`` or ``failed``."""
    if ended_at is None:
        return "running"
    if dry_run:
        return "dry run"
    return "passed" if success else "failed"


def render_runs(report: dict[str, Any]) -> list[str]:
    """The status lines: one per template's last run, then what waits behind the budget."""
    lines = []
    for run in report["last"]:
        text = f"{run['state']} {_when(run['at'])}"
        failing = run["failing"]
        if failing:
            more = f" and {len(failing) - MAX_NAMED} more" if len(failing) > MAX_NAMED else ""
            text += f": {', '.join(failing[:MAX_NAMED])}{more}"
        lines.append(f"  last run   {run['template']}: {text}")
    if not report["last"]:
        lines.append("  last run   none yet")
    queued = report["deferred"]
    behind = f"{queued} action(s) behind the budget" if queued else "nothing behind the budget"
    if queued and report["next_try"] is not None:
        behind += f" (next try {_when(report['next_try'])})"
    lines.append(f"  queued     {behind}")
    return lines


def _when(at: Any) -> str:
    return at.strftime("%Y-%m-%d %H:%M:%S") if hasattr(at, "strftime") else str(at)
