"""The command executor: a template's own command (a project's test command) in the root.

The argv comes from the template (``command:``), rendered by
:mod:`cognition.act.command` and carried in the request's params; nothing
goes through a shell. Success is read from the exit status; a failure's error
says what failed, from the output's failure lines (pytest's ``FAILED``, go's
``--- FAIL``, TAP's ``not ok`` ...) or else its last lines, so an escalation
names the failing tests.
"""

from __future__ import annotations

import re

from cognition.act.command import ARGV_PARAM
from cognition.act.executors.base import (
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


class CommandExecutor(CommandLineExecutor):
    """Runs the request's argv (``params["argv"]``) in the root; success is exit status 0."""

    name = "command"

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Run the command for ``request``; a non-zero exit is a failure saying what failed."""
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


def what_failed(output: str) -> str:
    """The lines of a test run's output that name what failed, else its last lines."""
    lines = output.splitlines()
    failing = [line.rstrip() for line in lines if _FAILURE_LINE.match(line)]
    chosen = failing[:_MAX_FAILURE_LINES] or [line.rstrip() for line in lines[-_TAIL_LINES:]]
    return clip("\n".join(chosen).strip() or "no output", _ERROR_CHARS, keep_tail=False)
