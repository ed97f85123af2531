"""Runs inside the practice sandbox: HumanEval's checks, without pytest and almost without imports.

``python -I -S -B check_runner.py ENTRY_POINT REPORT_FD CHECKS_FD`` forks the
candidate first (:mod:`rsi.candidate`: the solution imported in a child that
holds neither descriptor and cannot reach this process), then imports the
checks (written by :mod:`rsi.checks`) from ``CHECKS_FD``, a file that is
nowhere in the sandbox's filesystem, and calls ``check(candidate, expect)``
with ``candidate`` a function that calls the child's entry point: nothing
else of the solution's module reaches the checks. ``expect`` runs one
assert's expression here, writes a line to ``REPORT_FD`` (line-buffered, so
a run killed at its timeout keeps what it reported) and prints each failing
assert, with what came out, for the model to read. Nothing the solution
raises, ``SystemExit`` included, stops the checks that follow, and nothing
it does reaches the report.

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
    entry_point, fd, checks_fd = argv[1], int(argv[2]), int(argv[3])
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)  # -I left it out
    import candidate  # type: ignore[import-not-found]

    # First of all: the child must be forked before this process has read a check.
    child = candidate.start(here, close=(fd, checks_fd))
    sys.path.remove(here)  # nothing else is imported from the run's folder
    runner = Runner(os.fdopen(fd, "w", buffering=1, encoding="utf-8"))
    exports, broken = child.ready()
    if broken is not None:
        runner.emit("error", _clean(broken))
        return 0
    if exports.get(entry_point, ("",))[0] != "function":
        runner.emit("error", f"the solution defines no function {entry_point!r}")
        return 0
    try:
        checks = _import_checks(checks_fd)
        # The entry point is all the checks get of the solution, as "candidate" and by its
        # name (HumanEval/33 names it): no other name of its module (an "abs", a "poly").
        function = candidate.remote(child, entry_point)
        setattr(checks, entry_point, function)
        checks.check(function, runner.expect)
    except BaseException as exc:
        _trace()
        runner.emit("check", "raised", _describe(exc))
    else:
        runner.emit("check", "returned")
    return 0


def _import_checks(fd: int) -> Any:
    """The checks module, read from a descriptor: its file is not in the sandbox's filesystem."""
    from importlib.machinery import SourceFileLoader

    class FromDescriptor(SourceFileLoader):
        def get_data(self, path: str) -> bytes:
            if path != self.path:
                raise OSError("no cached bytecode")  # -B: none is written or read
            chunks = []
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
            return b"".join(chunks)

    module = type(sys)("checks")
    module.__file__ = "checks.py"
    sys.modules["checks"] = module
    FromDescriptor("checks", "checks.py").exec_module(module)
    return module


if __name__ == "__main__":
    sys.exit(main(sys.argv))
