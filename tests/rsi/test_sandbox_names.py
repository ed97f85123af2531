"""Names a solution cannot lend the checks, tests it cannot add (issue 56, cases 1 and 3).

Each wrong answer is a real solution run in the real sandbox, written as the
trial writes one (the task's prompt first, the code after it). It redefines
what the checks call besides the entry point: a builtin, or the spec's own
helper. Before, the checks began with ``from solution import *`` and these
scored 3/3, 1/1 and 1/1; a generated problem's pytest file collected the
solution's own ``test_`` functions.
"""

from __future__ import annotations

import pytest

from rsi import confine, problems, sandbox
from rsi.checks import checks_module

# HumanEval/2: truncate_number(3.5) is 0.5; "abs" of anything is 0.
SHADOW_ABS = """
def abs(x):
    return 0

def truncate_number(number):
    return 0.5
"""
# HumanEval/32: find_zero's answer checked through poly, which the solution makes 0.
SHADOW_POLY = """
def poly(xs, x):
    return 0

def find_zero(xs):
    return 123.0
"""
# HumanEval/38: decode_cyclic(encode_cyclic(s)) == s when both do nothing.
SHADOW_ENCODE = """
def encode_cyclic(s):
    return s

def decode_cyclic(s):
    return s
"""


@pytest.mark.parametrize(
    ("task_id", "code"),
    [("HumanEval/2", SHADOW_ABS), ("HumanEval/32", SHADOW_POLY), ("HumanEval/38", SHADOW_ENCODE)],
)
async def test_a_solution_redefining_what_the_checks_call_scores_as_failed(
    task_id: str, code: str
) -> None:
    problem = problems.by_id(task_id)
    result = await sandbox.run_problem(problem, problem.module(code), timeout_s=30)
    assert not result.success, (task_id, result)
    assert result.tests_passed < result.tests_total, (task_id, result)


async def test_builtins_the_checks_call_stay_builtins() -> None:
    check = (
        "def check(candidate):\n"
        "    assert sorted(candidate(3)) == [1, 2, 3]\n"
        "    assert tuple(candidate(2)) == (1, 2)\n"
        "    assert len(candidate(1)) == 1\n"
    )
    solution = (
        "def sorted(x):\n    return [1, 2, 3]\n"
        "def tuple(x):\n    return (1, 2)\n"
        "def len(x):\n    return 1\n"
        "def count(n):\n    return [0]\n"
    )
    checks = checks_module(check, "count")
    result = await sandbox.run_checks(checks, solution, timeout_s=30)
    assert (result.tests_passed, result.tests_total) == (1, 3), result


def test_the_checks_take_the_spec_helpers_they_use_and_nothing_of_the_solution() -> None:
    problem = problems.by_id("HumanEval/32")
    checks = checks_module(problem.check, problem.entry_point, problem.spec)
    assert "from solution" not in checks.source and "import *" not in checks.source
    assert "import math" in checks.source and "def poly(" in checks.source
    assert "def find_zero(" not in checks.source  # the entry point is the candidate's
    plain = problems.by_id("HumanEval/0")  # its spec imports typing, which the checks do not use
    source = checks_module(plain.check, plain.entry_point, plain.spec).source
    assert "typing" not in source and "def has_close_elements" not in source


TESTS = (
    "from solution import *\n"
    "def test_one():\n    assert add(1, 2) == 3\n"
    "def test_zero():\n    assert add(0, 0) == 0\n"
    "def test_neg():\n    assert add(-1, -1) == -2\n"
)
EXPORTED_TESTS = "def add(x, y):\n    return 0\n" + "".join(
    f"def test_fake{n}():\n    pass\n" for n in range(50)
)


async def test_tests_exported_by_the_solution_are_not_collected() -> None:
    result = await sandbox.run_tests(TESTS, EXPORTED_TESTS, timeout_s=30)
    assert result.tests_total == 3, result
    assert result.tests_passed == 1 and not result.success, result  # add(0, 0) == 0 holds


async def test_a_generated_problem_shows_its_tests_only_the_names_its_stub_defines() -> None:
    problem = problems.Problem("generated", "def add(x, y):\n    pass\n", "add", TESTS)
    # "abs" in the solution would answer every check that reads it: not shown to the tests.
    tests = TESTS + "def test_abs():\n    assert abs(add(1, 1) - 2) == 0\n"
    problem = problems.Problem("generated", problem.spec, "add", tests)
    wrong = "def abs(x):\n    return 0\ndef helper():\n    return 1\ndef add(x, y):\n    return 0\n"
    result = await sandbox.run_problem(problem, wrong, timeout_s=30)
    assert (result.tests_passed, result.tests_total) == (1, 4), result


# Plants a conftest.py whose hook marks every test passed wherever it may write: the
# private /tmp, its working folder, HOME, and beside itself (the run's own files).
PLANT_CONFTEST = '''
import os

HOOK = """
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
"""

for where in ("/tmp", os.getcwd(), os.environ.get("HOME", "/tmp"),
              os.path.dirname(os.path.abspath(__file__))):
    try:
        with open(os.path.join(where, "conftest.py"), "w") as f:
            f.write(HOOK)
    except OSError:
        pass

def add(x, y):
    return 0
'''


async def test_a_conftest_planted_by_the_solution_is_not_read() -> None:
    result = await sandbox.run_tests(TESTS, PLANT_CONFTEST, timeout_s=30)
    assert (result.tests_passed, result.tests_total) == (1, 3), result


async def test_without_a_mount_namespace_the_runs_files_are_still_not_its_to_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Nous as root, the run a user of its own, no mount namespace: its files stay ours.
    found = [c for c in confine.candidates() if c.mount == confine.NO_MOUNT and c.drops_user]
    if not found or not confine.works(found[0]):
        pytest.skip("no way that drops the user without a mount namespace here")
    monkeypatch.setattr(sandbox, "confinement", lambda: found[0])
    result = await sandbox.run_tests(TESTS, PLANT_CONFTEST, timeout_s=30)
    assert (result.tests_passed, result.tests_total) == (1, 3), result
