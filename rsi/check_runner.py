"""Runs inside the practice sandbox: HumanEval's checks, without pytest and almost without imports.

``python -I -S -B check_runner.py ENTRY_POINT REPORT_FD`` imports ``solution``
and ``checks`` (written by :mod:`rsi.checks`) from its own folder and calls
``check(candidate, expect)``. ``expect`` runs one assert's expression, writes
a line to ``REPORT_FD`` (line-buffered, so a run killed at its timeout keeps
what it reported) and prints each failing assert, with what came out, for the
model to read. Nothing the solution raises, ``SystemExit`` included, stops the
checks that follow.

The standard library only, and as little of it as can be: the sandbox's cost
is this interpreter's start (``-S``: no site-packages), so even ``json`` and
``typing`` stay out; the report is one record a line, fields split by tabs
(:func:`rsi.checks.parse_record` reads them).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any

_CLIP = 200


def _clean(text: str) -> str:
    """One field: no tab or line break, clipped."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _CLIP else flat[: _CLIP - 1] + "…"


def _show(value: object) -> str:
    try:
        return _clean(repr(value))
    except BaseException as exc:  # a repr that fails is the candidate's doing too
        return f"<unprintable {type(value).__name__}: {type(exc).__name__}>"


def _describe(exc: BaseException) -> str:
    return _clean(f"{type(exc).__name__}: {exc}")


class Runner:
    """The report stream and the ``expect`` that ``check`` calls for each assert."""

    def __init__(self, report: IO[str]) -> None:
        self.report = report

    def emit(self, *fields: str) -> None:
        """One record, written at once."""
        self.report.write("\t".join(fields) + "\n")

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
                detail = "" if ok else f" (got {_show(got)}, expected {_show(want)})"
        except BaseException as exc:  # the candidate's own failure: this assert fails, no more
            ok, detail = False, f" (raised {_describe(exc)})"
        said = _clean(f"assert {text}{detail}")
        self.emit("assert", str(line), "ok" if ok else "failed", said)
        if not ok:
            print(f"FAILED line {line}: {said}", flush=True)


def _trace() -> None:
    import traceback  # only when something went wrong: it costs an import

    traceback.print_exc()


def main(argv: list[str]) -> int:
    """Run the checks; exit 0 whatever they say (the report says it)."""
    entry_point, fd = argv[1], int(argv[2])
    runner = Runner(os.fdopen(fd, "w", buffering=1, encoding="utf-8"))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I left it out
    try:
        import solution  # type: ignore[import-not-found]
    except BaseException as exc:
        _trace()
        runner.emit("error", _clean(f"the solution does not import: {_describe(exc)}"))
        return 0
    candidate = getattr(solution, entry_point, None)
    if not callable(candidate):
        runner.emit("error", f"the solution defines no function {entry_point!r}")
        return 0
    try:
        import checks  # type: ignore[import-not-found]

        checks.check(candidate, runner.expect)
    except BaseException as exc:
        _trace()
        runner.emit("check", "raised", _describe(exc))
    else:
        runner.emit("check", "returned")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
