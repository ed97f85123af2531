"""The practice sandbox: untrusted tests and solutions run in a confined child, never here.

:func:`run_tests` writes the solution as ``solution.py`` beside the tests in a
fresh temporary folder outside the watched root, runs ``python -I -m pytest``
there with a junit XML report, under :mod:`rsi.confine`'s namespaces, user and
resource limits, with an environment that holds nothing of Nous's, and kills
the whole process group at the timeout. The folder is removed afterwards.

``python -m rsi.sandbox --tests T.py --solution S.py [--timeout S]`` runs the
same for checking by hand and prints one JSON object; exit 0 when it ran
(whatever the tests said), 2 on bad input.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import shutil
import signal
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from cognition.text import clip
from rsi.confine import NOBODY, confinement, limit_resources, process_limit
from rsi.errors import RSIError

TESTS_FILE = "test_practice.py"
SOLUTION_FILE = "solution.py"
REPORT_FILE = "junit.xml"
OUTPUT_FILE = "output.txt"
_OUTPUT_LIMIT = 2000
_PYTEST_INI = "[pytest]\naddopts = -p no:cacheprovider\n"


@dataclass(frozen=True)
class SandboxResult:
    """How one run went: counts from pytest's junit XML, and how it ended."""

    tests_passed: int
    tests_total: int
    timed_out: bool
    killed: bool
    error: str | None
    duration_s: float
    output: str = ""

    @property
    def partial_score(self) -> float:
        """Tests passed over tests run (0.0 when none ran)."""
        return self.tests_passed / self.tests_total if self.tests_total else 0.0

    @property
    def success(self) -> bool:
        """Every test ran and passed, within the limits."""
        return self.tests_total > 0 and self.tests_passed == self.tests_total and not self.killed


async def run_tests(
    tests: str, solution: str, *, timeout_s: float, root: Path | None = None
) -> SandboxResult:
    """Run ``tests`` against ``solution`` in the sandbox; never raises for what the code does.

    ``root`` is the watched root: the temporary folder must lie outside it.
    """
    started = time.perf_counter()
    conf = confinement()
    folder = _make_folder(root)
    try:
        _prepare(folder, tests, solution, owner=NOBODY if conf.drops_to_nobody else None)
        return await _run(folder, timeout_s, conf.prefix, conf.drops_to_nobody, started)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _make_folder(root: Path | None) -> Path:
    """A fresh folder in the system's temporary space, which must lie outside the watched root."""
    folder = Path(tempfile.mkdtemp(prefix="nous-practice-")).resolve()
    if root is not None and folder.is_relative_to(root.resolve()):
        shutil.rmtree(folder, ignore_errors=True)
        raise RSIError(f"the practice folder {folder} lies inside the watched root {root}")
    return folder


def _prepare(folder: Path, tests: str, solution: str, *, owner: int | None) -> None:
    (folder / TESTS_FILE).write_text(tests, encoding="utf-8")
    (folder / SOLUTION_FILE).write_text(solution, encoding="utf-8")
    (folder / "pytest.ini").write_text(_PYTEST_INI, encoding="utf-8")
    if owner is not None:
        for path in (folder, *folder.iterdir()):
            os.chown(path, owner, owner)


def _environment(folder: Path) -> dict[str, str]:
    # Built from nothing rather than stripped from ours: no NEO4J_*, NOUS_* or key can leak.
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(folder),
        "TMPDIR": str(folder),
        "LANG": "C.UTF-8",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }


async def _run(
    folder: Path, timeout_s: float, prefix: Sequence[str], drops: bool, started: float
) -> SandboxResult:
    cpu = max(1, math.ceil(timeout_s))
    nproc = process_limit(drops)
    argv = [
        *prefix,
        sys.executable,
        "-I",
        "-B",
        "-m",
        "pytest",
        "-q",
        "--rootdir",
        str(folder),
        "-c",
        str(folder / "pytest.ini"),
        f"--junitxml={folder / REPORT_FILE}",
        str(folder / TESTS_FILE),
    ]
    # Output goes to a file, not a pipe: a child that outlives pytest (where no PID
    # namespace ends it) cannot hold us waiting for the end of a pipe.
    with open(folder / OUTPUT_FILE, "wb") as output:  # noqa: ASYNC230 (a local, empty file)
        process = await asyncio.create_subprocess_exec(
            *argv,
            cwd=folder,
            env=_environment(folder),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=output,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: limit_resources(cpu, nproc),
        )
    timed_out = False
    try:
        await asyncio.wait_for(process.wait(), timeout_s)
    except TimeoutError:
        timed_out = True
    finally:
        # The whole process group goes, at the timeout and after a normal end alike;
        # in a PID namespace the kernel has already ended the rest with its init.
        _kill_group(process.pid)
        if process.returncode is None:
            await process.wait()
    code = process.returncode
    killed = timed_out or (code is not None and code < 0)
    passed, total, error = _read_report(folder / REPORT_FILE)
    if timed_out:
        error = f"timed out after {timeout_s:g} s"
    elif killed:
        error = f"killed by signal {-code if code is not None else '?'}"
    return SandboxResult(
        tests_passed=passed,
        tests_total=total,
        timed_out=timed_out,
        killed=killed,
        error=error,
        duration_s=round(time.perf_counter() - started, 4),
        output=_tail(folder / OUTPUT_FILE),
    )


def _tail(path: Path) -> str:
    """The end of the run's output, clipped (the file may be up to RLIMIT_FSIZE long)."""
    try:
        with open(path, "rb") as f:
            f.seek(max(0, path.stat().st_size - 4 * _OUTPUT_LIMIT))
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    return clip(text, _OUTPUT_LIMIT, keep_tail=True)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _read_report(path: Path) -> tuple[int, int, str | None]:
    """(passed, total, error) from pytest's junit XML; (0, 0, why) when there is none."""
    try:
        tree = ET.parse(path)  # noqa: S314 (written by pytest in the sandbox; size-capped)
    except (OSError, ET.ParseError) as exc:
        return 0, 0, f"no test report: {type(exc).__name__}"
    total = failed = 0
    for suite in tree.getroot().iter("testsuite"):
        total += int(suite.get("tests", "0") or 0)
        failed += sum(int(suite.get(k, "0") or 0) for k in ("failures", "errors", "skipped"))
    passed = max(0, total - failed)
    return passed, total, None if total else "no test ran"


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: run one tests file against one solution and print the result."""
    parser = argparse.ArgumentParser(
        prog="python -m rsi.sandbox",
        description="Run pytest tests against a solution in the practice sandbox.",
    )
    parser.add_argument("--tests", type=Path, required=True, help="pytest file (imports solution)")
    parser.add_argument("--solution", type=Path, required=True, help="becomes solution.py")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds (default 30)")
    args = parser.parse_args(argv)
    if not args.timeout > 0:
        print("rsi.sandbox: --timeout must be above 0", file=sys.stderr)
        return 2
    try:
        tests = args.tests.read_text(encoding="utf-8")
        solution = args.solution.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"rsi.sandbox: cannot read the tests or the solution: {exc}", file=sys.stderr)
        return 2
    result = asyncio.run(run_tests(tests, solution, timeout_s=args.timeout))
    print(json.dumps({k: v for k, v in asdict(result).items() if k != "output"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
