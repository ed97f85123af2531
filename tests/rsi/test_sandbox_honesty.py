"""A practice verdict the solution cannot write (issue 24, item 7).

Each forger is a real solution run in the real sandbox: it writes the
checker's report lines (or pytest's junit XML) to every descriptor it could
hold and to the checker's through ``/proc``, then exits 0. It must score as
failed, on HumanEval's checks and on a generated problem's pytest file alike.
That it cannot read HumanEval's data, the checks or the checkout is shown,
for each mount way, in ``test_sandbox_mounts.py``.
"""

from __future__ import annotations

from rsi import problems, sandbox

PROBLEM = problems.by_id("HumanEval/53")  # add(x, y)
TESTS = (
    "from solution import *\n"
    "def test_one():\n    assert add(1, 2) == 3\n"
    "def test_zero():\n    assert add(0, 0) == 0\n"
    "def test_neg():\n    assert add(-1, -1) == -2\n"
)

# Writes ``FORGED`` (bytes) to every descriptor it may hold and to its parent's, then exits.
_SPRAY = """
import os, re

def _targets():
    for fd in range(3, 64):
        yield fd, None
    for base in ("/proc/%d/fd" % os.getppid(), "/proc/self/fd"):
        try:
            names = os.listdir(base)
        except OSError:
            continue
        for name in names:
            yield None, base + "/" + name

def _spray(forged):
    done = set()  # each file once: twice would spoil the XML
    for fd, path in _targets():
        try:
            if path is not None:
                fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            info = os.fstat(fd)
            if (info.st_dev, info.st_ino) not in done:
                done.add((info.st_dev, info.st_ino))
                os.write(fd, forged)
        except OSError:
            pass

def add(x, y):
    return 0
"""

# The report lines of every assert HumanEval's rewritten check holds, read from the checks
# file wherever it can be found (today: beside the solution).
FORGE_CHECKS = (
    _SPRAY
    + """
lines = set()
for where in (os.path.dirname(os.path.abspath(__file__)), "/tmp", os.getcwd()):
    try:
        text = open(os.path.join(where, "checks.py")).read()
    except OSError:
        continue
    lines.update(re.findall(r"_expect\\((\\d+),", text))
lines = lines or {str(n) for n in range(1, 200)}
report = "".join("assert\\t%s\\tok\\tforged\\n" % n for n in sorted(lines)) + "check\\treturned\\n"
_spray(report.encode())
os._exit(0)
"""
)

FORGE_JUNIT = (
    _SPRAY
    + """
_spray(b'<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest"'
       b' errors="0" failures="0" skipped="0" tests="3" time="0.1"/></testsuites>')
os._exit(0)
"""
)

# An answer that equals everything: compared in the solution's process it passes every ==.
ALWAYS_EQUAL = """
class Anything:
    def __eq__(self, other):
        return True
    def __lt__(self, other):
        return True
    __gt__ = __le__ = __ge__ = __lt__
    def __bool__(self):
        return True

def add(x, y):
    return Anything()
"""


async def test_a_solution_writing_the_checks_report_scores_as_failed() -> None:
    result = await sandbox.run_problem(PROBLEM, FORGE_CHECKS, timeout_s=30)
    assert result.tests_passed == 0 and not result.success, result


async def test_a_solution_writing_junit_xml_scores_as_failed() -> None:
    result = await sandbox.run_tests(TESTS, FORGE_JUNIT, timeout_s=30)
    assert result.tests_passed == 0 and not result.success, result


async def test_an_answer_that_equals_everything_does_not_pass() -> None:
    checked = await sandbox.run_problem(PROBLEM, ALWAYS_EQUAL, timeout_s=30)
    assert checked.tests_passed == 0 and not checked.success, checked
    tested = await sandbox.run_tests(TESTS, ALWAYS_EQUAL, timeout_s=30)
    assert tested.tests_passed == 0 and not tested.success, tested


async def test_honest_work_still_passes_with_exceptions_and_values_across() -> None:
    solution = (
        "LIMIT = 10\n"
        "class TooBig(ValueError):\n    pass\n"
        "def add(x, y):\n"
        "    if x > LIMIT:\n        raise TooBig(f'{x} > {LIMIT}')\n"
        "    return x + y\n"
        "def pair(a):\n    return (a, [a, {a: None}])\n"
    )
    tests = (
        "import pytest\nfrom solution import *\n"
        "def test_add():\n    assert add(1, 2) == 3\n"
        "def test_limit():\n    assert LIMIT == 10\n"
        "def test_raises():\n"
        "    with pytest.raises(TooBig, match='11 > 10'):\n        add(11, 0)\n"
        "    with pytest.raises(ValueError):\n        add(12, 0)\n"
        "def test_shapes():\n    assert pair(2) == (2, [2, {2: None}])\n"
    )
    result = await sandbox.run_tests(tests, solution, timeout_s=30)
    assert (result.tests_passed, result.tests_total) == (4, 4), result
