"""Runs inside the practice sandbox: a generated problem's pytest file, the candidate apart.

``python -I -B pytest_runner.py REPORT_FD NAMES PYTEST_ARGS...`` forks the
candidate first (:mod:`rsi.candidate`: the solution imported in a child that
holds no descriptor of the report and cannot reach this process), puts a
stand-in ``solution`` module in its place (its functions call the child),
and runs pytest here, its junit XML written to ``REPORT_FD``. The solution
can print what it likes; it cannot write the report, or reach pytest.

The stand-in shows the tests only ``NAMES`` (comma-separated: what the task
defines; when empty, every export but a builtin's name or a test's), so a
solution's ``def test_x(): pass`` is never collected and its ``abs`` never
replaces the tests'. pytest's root, configuration and conftest search are
fixed by the caller (:func:`rsi.sandbox.run_tests`) at a folder the solution
cannot write.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    """Run pytest with ``argv[3:]``; its junit XML goes to descriptor ``argv[1]``."""
    fd, names = int(argv[1]), [name for name in argv[2].split(",") if name]
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)  # -I left it out
    import candidate  # type: ignore[import-not-found]

    child = candidate.start(here, close=(fd,))  # before pytest runs a line of the tests
    sys.path.remove(here)
    exports, broken = child.ready()
    if broken is None:
        sys.modules["solution"] = candidate.stand_in(child, candidate.shown(exports, names))
    else:
        print(broken, flush=True)
        sys.modules["solution"] = None  # type: ignore[assignment]  # the tests' import fails
    import pytest

    return int(pytest.main([*argv[3:], f"--junitxml=/dev/fd/{fd}"]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
