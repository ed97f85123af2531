"""The last run per template as ``nous status`` writes it (no Neo4j: the report as data)."""

from __future__ import annotations

from datetime import UTC, datetime

from cognition.act.test_names import failing_tests
from scheduler.cli.runs import render_runs, run_state

AT = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


def test_the_failing_tests_are_named_from_pytests_summary() -> None:
    error = (
        "exit status 1\nFAILED tests/test_a.py::test_one - assert 1 == 2\n"
        "ERROR tests/test_b.py::test_two\nFAILED tests/test_a.py::test_one - again\n"
        "  FAILED not at the start of a line\n"
    )
    assert failing_tests(error) == ["tests/test_a.py::test_one", "tests/test_b.py::test_two"]
    assert failing_tests(None) == []


def test_each_state_and_what_waits_behind_the_budget() -> None:
    assert run_state(None, None, False) == "running"
    assert run_state(AT, None, True) == "dry run"
    assert run_state(AT, True, False) == "passed"
    assert run_state(AT, False, False) == "failed"
    failing = [f"tests/test_{n}.py::test" for n in range(7)]
    report = {
        "last": [
            {"template": "run_suite", "state": "failed", "at": AT, "failing": failing},
            {"template": "build_docs", "state": "running", "at": AT, "failing": []},
        ],
        "deferred": 3,
        "next_try": AT,
    }
    assert render_runs(report) == [
        "  last run   run_suite: failed 2026-12-05 12:00:00: tests/test_0.py::test,"
        " tests/test_1.py::test, tests/test_2.py::test, tests/test_3.py::test,"
        " tests/test_4.py::test and 2 more",
        "  last run   build_docs: running 2026-12-05 12:00:00",
        "  queued     3 action(s) behind the budget (next try 2026-12-05 12:00:00)",
    ]
    empty = render_runs({"last": [], "deferred": 0, "next_try": None})
    assert empty == ["  last run   none yet", "  queued     nothing behind the budget"]
