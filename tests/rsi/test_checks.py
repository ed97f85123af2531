"""HumanEval's checks without pytest: each assert reports, the score counts assert statements."""

from __future__ import annotations

import time

from rsi import problems
from rsi.checks import checks_module, verdict
from rsi.sandbox import run_checks, run_problem

CHECK = """
METADATA = {"author": "x"}


def check(candidate):
    assert candidate(1, 2) == 3
    assert candidate(0, 0) == 0, "zero"
    for n in range(3):
        assert candidate(n, n) == 2 * n
    assert candidate(-1, -1) < 0
"""


def test_every_assert_becomes_an_expect_with_its_line() -> None:
    checks = checks_module(CHECK, "add")
    assert checks.assert_lines == (6, 7, 9, 10)
    assert "assert " not in checks.source.split("def check")[1]
    assert "def check(candidate, _expect):" in checks.source
    assert "solution" not in checks.source  # no star import: the entry point is handed in


def test_the_verdict_counts_statements_and_ignores_forged_lines() -> None:
    checks = checks_module(CHECK, "add")
    report = [
        "assert\t6\tok\tassert candidate(1, 2) == 3",
        "assert\t7\tfailed\tassert candidate(0, 0) == 0 (got 1, expected 0)",
        "assert\t9\tok\tassert candidate(n, n) == 2 * n",
        "assert\t9\tfailed\tone iteration failed",
        "assert\t10\tok\tassert candidate(-1, -1) < 0",
        "assert\t99\tok\tforged",  # no such assert: a solution writing into the report
        "check\treturned",
        "assert\t6\to",  # a torn tail
    ]
    found = verdict(checks, report)
    assert (found.passed, found.total) == (2, 4)
    assert found.failures[0] == "line 7: assert candidate(0, 0) == 0 (got 1, expected 0)"
    assert found.error is None


def test_an_empty_report_is_no_pass() -> None:
    found = verdict(checks_module(CHECK, "add"), [])
    assert (found.passed, found.total, found.error) == (0, 4, "no check ran")


async def test_a_partial_solution_is_told_each_failing_assert() -> None:
    checks = checks_module(CHECK, "add")
    wrong = "def add(a, b):\n    return a * b\n"
    result = await run_checks(checks, wrong, timeout_s=20)
    # 6 fails (2), 7 holds (0), the loop fails at n=1 only, 10 fails (1 < 0).
    assert (result.tests_passed, result.tests_total) == (1, 4), result
    assert "FAILED line 6: assert candidate(1, 2) == 3 (got 2, expected 3)" in result.output
    assert "FAILED line 9: assert candidate(n, n) == 2 * n (got 1, expected 2)" in result.output
    assert "FAILED line 10: assert candidate(-1, -1) < 0" in result.output


async def test_the_solution_exiting_or_raising_does_not_stop_the_checks() -> None:
    checks = checks_module(CHECK, "add")
    rude = "import sys\ndef add(a, b):\n    if a == 0:\n        sys.exit(3)\n    return a + b\n"
    result = await run_checks(checks, rude, timeout_s=20)
    # 6 holds, 7 raises SystemExit, 9 fails at n=0, 10 holds.
    assert (result.tests_passed, result.tests_total) == (2, 4), result
    assert "raised SystemExit" in result.output


async def test_a_solution_that_does_not_import_or_lacks_the_function_scores_zero() -> None:
    checks = checks_module(CHECK, "add")
    broken = await run_checks(checks, "def add(:\n", timeout_s=20)
    assert broken.tests_passed == 0 and broken.tests_total == 4
    assert broken.error is not None and "does not import" in broken.error
    missing = await run_checks(checks, "def sub(a, b):\n    return a - b\n", timeout_s=20)
    assert missing.error == "the solution defines no function 'add'"


async def test_a_timeout_keeps_what_was_reported_before_it() -> None:
    checks = checks_module(CHECK, "add")
    slow = "import time\ndef add(a, b):\n    if a < 0:\n        time.sleep(60)\n    return a + b\n"
    started = time.monotonic()
    result = await run_checks(checks, slow, timeout_s=3)
    assert time.monotonic() - started < 15
    assert result.timed_out and result.killed
    assert (result.tests_passed, result.tests_total) == (3, 4)


async def test_humaneval_canonical_solutions_pass_without_pytest() -> None:
    # Problems with asserts in loops, helper functions and imports in their tests.
    for task_id in ("HumanEval/0", "HumanEval/32", "HumanEval/38", "HumanEval/53"):
        problem = problems.by_id(task_id)
        result = await run_problem(problem, problem.canonical_solution, timeout_s=30)
        assert result.success, (task_id, result)
        stub = await run_problem(problem, problem.spec + "    return None\n", timeout_s=30)
        assert not stub.success, task_id
