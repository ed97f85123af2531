"""The command executor: a template's own command (a project's test command) in the root.

The argv comes from the template (``command:``), rendered by
:mod:`cognition.act.command` and carried in the request's params; nothing
goes through a shell. Success is read from the exit status; a failure's error
says what failed, from the output's failure lines (pytest's ``FAILED``, go's
``--- FAIL``, TAP's ``not ok`` ...) or else its last lines, so an escalation
names the failing tests.

With test files to run first (``params["first"]``, :mod:`cognition.act.test_order`)
a run has two phases in one execution: the argv with those files appended,
then, only if they passed, the argv alone (the whole suite). A failure in the
first phase is the run's failure (its command is what ran); an exit status
that gives no verdict on the tests (pytest's 4, a usage error, and 5, no test
collected) goes on to the whole suite. Each phase is one child process, whose
group is killed when the run is cancelled (``on_busy: restart``, shutdown),
so the second never starts after the first was stopped.
"""

from __future__ import annotations

import dataclasses
import re

from cognition.act.command import ARGV_PARAM, FIRST_PARAM
from cognition.act.executors.base import (
    EXCERPT_CHARS,
    ExecutionRequest,
    ExecutionResult,
    failure,
    from_process,
)
from cognition.act.executors.command_line import CommandLineExecutor
from cognition.text import clip

# Lines that name what failed, in the test runners' own words.
_FAILURE_LINE = re.compile(
    r"^\s*(FAILED |ERROR |--- FAIL|FAIL\b|not ok\b|E\s{3}|error(\[E\d+\])?:|"
    r"thread '.*' panicked|✗|✕|\d+ (failed|failing))",
    re.IGNORECASE,
)
_MAX_FAILURE_LINES = 20
_TAIL_LINES = 15
_ERROR_CHARS = 2000
# pytest's exit statuses that say nothing of the tests: a usage error, no test collected.
_NO_VERDICT = frozenset({4, 5})


class CommandExecutor(CommandLineExecutor):
    """Runs the request's argv (``params["argv"]``) in the root; success is exit status 0."""

    name = "command"

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Run the command for ``request``; a non-zero exit is a failure saying what failed.

        With files to run first, they run first, and the whole command only if they pass.
        """
        first = _first(request)
        argv = request.params.get(ARGV_PARAM)
        if not first or not isinstance(argv, list):
            return await self._once(request)
        params = {**request.params, ARGV_PARAM: [*argv, *first], FIRST_PARAM: []}
        one = await self._once(dataclasses.replace(request, params=params))
        if not one.success and one.return_code not in _NO_VERDICT:
            error = f"{len(first)} test file(s) run first failed: {one.error}"
            return dataclasses.replace(one, error=error)
        budget = (request.timeout_s or self._settings.timeout_s) - one.duration_s
        whole = await self._once(dataclasses.replace(request, timeout_s=max(1.0, budget)))
        note = (
            f"[nous] {len(first)} test file(s) run first: "
            f"{'passed' if one.success else f'exit status {one.return_code}'}"
            f" in {one.duration_s:.1f} s; then the whole suite"
        )
        output = clip(f"{note}\n{whole.output}", EXCERPT_CHARS, keep_tail=True)
        return dataclasses.replace(
            whole, output=output, duration_s=one.duration_s + whole.duration_s
        )

    async def _once(self, request: ExecutionRequest) -> ExecutionResult:
        """One run of the request's argv."""
        command = self.command_for(request)
        if not command:
            return failure(command, "the template gives no command to run")
        proc = await self._run(request, command, "the command")
        if isinstance(proc, ExecutionResult):
            return proc
        output = "\n".join(part for part in (proc.stdout, proc.stderr) if part.strip())
        if proc.return_code == 0:
            return from_process(proc, command, success=True, output=output, error=None)
        error = f"{' '.join(command)} exited with status {proc.return_code}: {what_failed(output)}"
        return from_process(proc, command, success=False, output=output, error=error)

    def _argv(self, request: ExecutionRequest, prompt: str) -> list[str]:
        argv = request.params.get(ARGV_PARAM)
        if not isinstance(argv, list | tuple) or not all(isinstance(w, str) for w in argv):
            return []
        return list(argv)


def _first(request: ExecutionRequest) -> list[str]:
    """The test files ``request`` runs first (none unless a list of words)."""
    first = request.params.get(FIRST_PARAM)
    if not isinstance(first, list | tuple) or not all(isinstance(p, str) for p in first):
        return []
    return list(first)


def what_failed(output: str) -> str:
    """The lines of a test run's output that name what failed, else its last lines."""
    lines = output.splitlines()
    failing = [line.rstrip() for line in lines if _FAILURE_LINE.match(line)]
    chosen = failing[:_MAX_FAILURE_LINES] or [line.rstrip() for line in lines[-_TAIL_LINES:]]
    return clip("\n".join(chosen).strip() or "no output", _ERROR_CHARS, keep_tail=False)
