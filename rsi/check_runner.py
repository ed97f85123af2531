"""Runs inside the practice sandbox (standard library only): HumanEval's checks, no pytest.

``python -I -B check_runner.py ENTRY_POINT REPORT_FD`` imports ``solution`` and
``checks`` (written by :mod:`rsi.checks`) from its own folder and calls
``check(candidate, expect)``. ``expect`` runs one assert's expression, writes a
JSON line to ``REPORT_FD`` (line-buffered, so a run killed at its timeout
keeps what it reported) and prints each failing assert, with what came out,
for the model to read. Nothing the solution raises, ``SystemExit`` included,
stops the checks that follow.
"""

from __future__ import annotations

import json
import os
import reprlib
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 120
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 12


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {_SHORT.repr(str(exc))[1:-1]}"


class Runner:
    """The report stream and the ``expect`` that ``check`` calls for each assert."""

    def __init__(self, report: IO[str]) -> None:
        self.report = report

    def emit(self, **record: Any) -> None:
        """One JSON line, flushed at once."""
        self.report.write(json.dumps(record) + "\n")

    def expect(
        self,
        line: int,
        text: str,
        actual: Callable[[], Any],
        expected: Callable[[], Any] | None = None,
    ) -> None:
        """One assert: ``actual()`` is truthy, or ``actual() == expected()``."""
        detail = ""
        try:
            got = actual()
            if expected is None:
                ok = bool(got)
            else:
                want = expected()
                ok = bool(got == want)
                detail = "" if ok else f" (got {_SHORT.repr(got)}, expected {_SHORT.repr(want)})"
        except BaseException as exc:  # the candidate's own failure: this assert fails, no more
            ok, detail = False, f" (raised {_describe(exc)})"
        self.emit(line=line, ok=ok, text=f"assert {text}{detail}")
        if not ok:
            print(f"FAILED line {line}: assert {text}{detail}", flush=True)


def main(argv: list[str]) -> int:
    """Run the checks; exit 0 whatever they say (the report says it)."""
    entry_point, fd = argv[1], int(argv[2])
    runner = Runner(os.fdopen(fd, "w", buffering=1, encoding="utf-8"))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I left it out
    try:
        import solution  # type: ignore[import-not-found]
    except BaseException as exc:
        traceback.print_exc()
        runner.emit(error=f"the solution does not import: {_describe(exc)}")
        return 0
    candidate = getattr(solution, entry_point, None)
    if not callable(candidate):
        runner.emit(error=f"the solution defines no function {entry_point!r}")
        return 0
    try:
        import checks  # type: ignore[import-not-found]

        checks.check(candidate, runner.expect)
    except BaseException as exc:
        traceback.print_exc()
        runner.emit(check="raised", text=_describe(exc))
    else:
        runner.emit(check="returned")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
