"""Runs inside the practice sandbox: a generated problem's pytest file, the candidate apart.

``python -I -B pytest_runner.py REPORT_FD PYTEST_ARGS...`` forks the
candidate first (:mod:`rsi.candidate`: the solution imported in a child that
holds no descriptor of the report and cannot reach this process), puts a
stand-in ``solution`` module in its place (its functions call the child),
and runs pytest here, its junit XML written to ``REPORT_FD``. The solution
can print what it likes; it cannot write the report, or reach pytest.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    """Run pytest with ``argv[2:]``; its junit XML goes to descriptor ``argv[1]``."""
    fd = int(argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)  # -I left it out
    import candidate  # type: ignore[import-not-found]

    child = candidate.start(here, close=(fd,))  # before pytest runs a line of the tests
    sys.path.remove(here)
    exports, broken = child.ready()
    if broken is None:
        sys.modules["solution"] = candidate.stand_in(child, exports)
    else:
        print(broken, flush=True)
        sys.modules["solution"] = None  # type: ignore[assignment]  # the tests' import fails
    import pytest

    return int(pytest.main([*argv[2:], f"--junitxml=/dev/fd/{fd}"]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
