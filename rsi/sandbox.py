"""The practice sandbox: untrusted tests and solutions run in a confined child, never here.

Two ways to check a solution, both in the same confinement (:mod:`rsi.confine`:
a mount namespace where the filesystem is read-only and the working folder a
private tmpfs, no network, nobody, resource limits, the process group killed
at the end):

- :func:`run_checks`, for HumanEval: :mod:`rsi.check_runner` calls the
  problem's ``check(candidate)`` with each assert rewritten to report
  (:mod:`rsi.checks`); no pytest, so a run costs little more than the
  interpreter's start;
- :func:`run_tests`, for a generated problem's pytest file: pytest
  (:mod:`rsi.pytest_runner`) with a junit XML report.

Either way the solution runs in a child of the checker (:mod:`rsi.candidate`)
that holds no descriptor of the report and cannot reach the checker's, so the
verdict is never the solution's to write; HumanEval's checks reach the
checker through a descriptor of a file that is not in the sandbox at all.

:func:`run_problem` picks the way for a :class:`rsi.problems.Problem`. The
files are written to a fresh temporary folder outside the watched root (bound
or copied into the private ``/tmp``); the report comes back through an
inherited file descriptor; the folder is removed afterwards.

``python -m rsi.sandbox --tests T.py --solution S.py [--timeout S]`` runs a
pytest file the same way for checking by hand and prints one JSON object;
exit 0 when it ran (whatever the tests said), 2 on bad input.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import os
import signal
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

from cognition.text import clip
from rsi.checks import Checks, checks_module, task_names, verdict
from rsi.confine import (
    Confinement,
    confinement,
    limit_resources,
    process_limit,
    remove_folder,
)
from rsi.problems import Problem
from rsi.run_folder import (
    INPUTS_DIR,
    REPORT_FILE,
    SCRATCH_DIR,
    environment,
    lay_out,
    make_folder,
    unseen_file,
)

log = logging.getLogger(__name__)

# CPU seconds a run may use beyond its wall-clock budget before RLIMIT_CPU ends it.
CPU_MARGIN_S = 5
TESTS_FILE = "test_practice.py"
SOLUTION_FILE = "solution.py"
RUNNER_FILE = "check_runner.py"
CANDIDATE_FILE = "candidate.py"
PYTEST_RUNNER_FILE = "pytest_runner.py"
OUTPUT_FILE = "output.txt"
_OUTPUT_LIMIT = 2000
PYTEST_INI = "pytest.ini"
_REPORT_BYTES = 1_000_000


@dataclass(frozen=True)
class SandboxResult:
    """How one run went: asserts or tests passed and run, and how it ended."""

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


@dataclass(frozen=True)
class _Ended:
    report: str
    output: str
    timed_out: bool
    killed: bool
    error: str | None


async def run_problem(
    problem: Problem, solution: str, *, timeout_s: float, root: Path | None = None
) -> SandboxResult:
    """Check ``solution`` against ``problem``: HumanEval's checks, or a generated pytest file."""
    if problem.check:
        checks = checks_module(problem.check, problem.entry_point, problem.spec)
        return await run_checks(checks, solution, timeout_s=timeout_s, root=root)
    names = sorted(task_names(problem.spec))
    return await run_tests(
        problem.given_tests, solution, timeout_s=timeout_s, root=root, names=names
    )


async def run_checks(
    checks: Checks, solution: str, *, timeout_s: float, root: Path | None = None
) -> SandboxResult:
    """Run HumanEval's rewritten checks against ``solution``: one result per assert statement."""
    started = time.perf_counter()
    files = {SOLUTION_FILE: solution, **_ours(RUNNER_FILE, CANDIDATE_FILE)}

    def command(files_dir: Path, fds: Sequence[int]) -> list[str]:
        # -S: the standard library only (no site-packages), and the interpreter starts in a
        # fraction of the time: the checks and HumanEval's solutions need nothing else.
        runner = str(files_dir / RUNNER_FILE)
        report, unseen = (str(fd) for fd in fds)
        return [sys.executable, "-I", "-S", "-B", runner, checks.entry_point, report, unseen]

    ended = await _confined(files, command, timeout_s, root, unseen=checks.source)
    found = verdict(checks, ended.report.splitlines())
    output = ended.output or "\n".join(found.failures)
    return SandboxResult(
        tests_passed=found.passed,
        tests_total=found.total,
        timed_out=ended.timed_out,
        killed=ended.killed,
        error=ended.error or found.error,
        duration_s=round(time.perf_counter() - started, 4),
        output=output,
    )


async def run_tests(
    tests: str,
    solution: str,
    *,
    timeout_s: float,
    root: Path | None = None,
    names: Sequence[str] = (),
) -> SandboxResult:
    """Run the pytest file ``tests`` against ``solution``; never raises for what the code does.

    ``names`` are what the task defines (a generated problem's stub): the tests see
    only those of the solution's names (all but builtins' and tests' when empty).
    ``root`` is the watched root: the temporary folder must lie outside it.
    """
    started = time.perf_counter()
    files = {
        TESTS_FILE: tests,
        SOLUTION_FILE: solution,
        PYTEST_INI: "",
        **_ours(PYTEST_RUNNER_FILE, CANDIDATE_FILE),
    }

    def command(files_dir: Path, fds: Sequence[int]) -> list[str]:
        # Root, configuration and conftest search fixed at the run's own read-only folder,
        # no cache, no plugin but pytest's own (PYTEST_DISABLE_PLUGIN_AUTOLOAD): nothing the
        # solution writes in /tmp or its working folder is read by pytest.
        runner = str(files_dir / PYTEST_RUNNER_FILE)
        return [
            *(sys.executable, "-I", "-B", runner, str(fds[0]), ",".join(names), "-q"),
            *("-p", "no:cacheprovider", "--rootdir", str(files_dir)),
            *("--confcutdir", str(files_dir), "-c", str(files_dir / PYTEST_INI)),
            str(files_dir / TESTS_FILE),
        ]

    ended = await _confined(files, command, timeout_s, root)
    passed, total, error = _read_junit(ended.report)
    return SandboxResult(
        tests_passed=passed,
        tests_total=total,
        timed_out=ended.timed_out,
        killed=ended.killed,
        error=ended.error or error,
        duration_s=round(time.perf_counter() - started, 4),
        output=ended.output,
    )


def _ours(*names: str) -> dict[str, str]:
    """Our own modules that run in the sandbox, by file name."""
    rsi = resources.files("rsi")
    return {name: rsi.joinpath(name).read_text(encoding="utf-8") for name in names}


async def _confined(
    files: Mapping[str, str],
    command: Callable[[Path, Sequence[int]], list[str]],
    timeout_s: float,
    root: Path | None,
    unseen: str | None = None,
) -> _Ended:
    """Write ``files`` to a fresh folder, run ``command`` confined, and read what it left.

    ``command`` gets the report's descriptor and, with ``unseen``, one more: a
    file holding ``unseen`` that lies beside the run's folder, never in it (the
    checks: the solution must not read them).
    """
    conf = confinement()
    folder = make_folder(root)
    # The run's files in a folder of their own (what a mount namespace binds or copies
    # into its private /tmp, read-only); the report and the output beside it, never inside.
    inputs, scratch = folder / INPUTS_DIR, folder / SCRATCH_DIR
    try:
        report = folder / REPORT_FILE
        report.touch()
        # Opened before the report is given away: a root without CAP_DAC_OVERRIDE could
        # not open nobody's file for writing afterwards.
        fd = os.open(report, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        fds = [fd, *unseen_file(folder, unseen)]
        user = conf.run_user()
        try:
            refused = lay_out(folder, files, conf, user)
            if refused is not None:
                log.warning("practice run not started: %s", refused)
                return _Ended("", "", False, False, refused)
            work = conf.work_dir(scratch)
            argv = conf.argv(inputs, command(conf.files_dir(inputs), fds), user)
            # unshare copies the files from where it starts; bwrap does not care.
            start = inputs if conf.private_tmp else scratch
            timed_out, code = await _run(
                argv, start, folder / OUTPUT_FILE, environment(work), fds, timeout_s, conf
            )
        finally:
            for each in fds:
                os.close(each)
        killed = timed_out or (code is not None and code < 0)
        error = None
        if timed_out:
            error = f"timed out after {timeout_s:g} s"
        elif killed:
            error = f"killed by signal {-code if code is not None else '?'}"
        return _Ended(_head(report), _tail(folder / OUTPUT_FILE), timed_out, killed, error)
    finally:
        remove_folder(folder)


async def _run(
    argv: Sequence[str],
    cwd: Path,
    output_file: Path,
    env: Mapping[str, str],
    fds: Sequence[int],
    timeout_s: float,
    conf: Confinement,
) -> tuple[bool, int | None]:
    """(timed out, exit code) of ``argv`` run in ``cwd``, inheriting ``fds``."""
    # RLIMIT_CPU is the backstop, not the timeout: at exactly the wall-clock budget, a run
    # that had a core to itself reached it at the moment wait_for did, and when the limit's
    # SIGXCPU won, the wrapper (bubblewrap, unshare) exited with a code of its own and the
    # run was reported as ending without a report rather than as timed out.
    cpu = max(1, math.ceil(timeout_s)) + CPU_MARGIN_S
    nproc = process_limit(conf.drops_user)
    # Output goes to a file, not a pipe: a child that outlives the run (where no PID
    # namespace ends it) cannot hold us waiting for the end of a pipe.
    with open(output_file, "wb") as output:  # noqa: ASYNC230 (a local, empty file)
        process = await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            env=dict(env),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=output,
            stderr=asyncio.subprocess.STDOUT,
            pass_fds=tuple(fds),
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
    return timed_out, process.returncode


def _head(path: Path) -> str:
    """The report as text (at most :data:`_REPORT_BYTES`: it is the child's to write)."""
    try:
        with open(path, "rb") as f:
            return f.read(_REPORT_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""


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


def _read_junit(report: str) -> tuple[int, int, str | None]:
    """(passed, total, error) from pytest's junit XML; (0, 0, why) when there is none."""
    if not report.strip():
        return 0, 0, "no test report"
    try:
        tree = ET.fromstring(report)  # noqa: S314 (written by pytest in the sandbox; size-capped)
    except ET.ParseError as exc:
        return 0, 0, f"no test report: {type(exc).__name__}"
    total = failed = 0
    for suite in tree.iter("testsuite"):
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
