"""What a failed test run teaches the learned test order: which test files broke after which
changes (:mod:`cognition.act.test_order` reads it back)."""

from __future__ import annotations

from collections.abc import Sequence

from cognition.act.action import ActOutcome
from cognition.act.test_names import by_test_file, failing_tests
from graph.store.test_runs import TestRunStore


async def remember_failed_tests(
    runs: TestRunStore, outcome: ActOutcome, changed: Sequence[str]
) -> int:
    """Link a live failed run to the test files its output names and to the files ``changed``.

    Nothing for a dry run, a run that passed, or one whose output names no failing test;
    returns how many test files were linked.
    """
    if outcome.success or outcome.dry_run or not outcome.results or not changed:
        return 0
    if outcome.execution_id is None:
        return 0
    last = outcome.results[-1]
    broken = by_test_file(failing_tests(f"{last.output}\n{last.error or ''}"))
    if not broken:
        return 0
    return await runs.record_failures(outcome.execution_id, changed, broken)
