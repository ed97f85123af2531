"""What the command-line executors (Claude Code, claude-flow) share.

Their settings, an environment cleaned of Nous's secrets and of the
variables that make the Claude Code CLI refuse to start nested ("cannot be
launched inside another Claude Code session"), the argv with the prompt
hidden for the record, and one run of the child: a program that cannot
start, or runs out of time, is a failed result here, so each executor reads
only the output of a child that finished.
"""

from __future__ import annotations

from collections.abc import Mapping

from cognition.act.executors.base import (
    PROMPT_PLACEHOLDER,
    ExecutionRequest,
    ExecutionResult,
    from_process,
    positional,
    spawn,
    timeout_error,
)
from cognition.act.executors.process import ProcessResult
from graph.settings import ExecutorSettings

# Set by a running Claude Code session; a child CLI that sees them refuses to start.
_NESTING_VARIABLES = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")
# Nous's own secrets and settings: an agent working on untrusted file content
# has no business reading the memory's password or the LLM's key.
_PRIVATE_VARIABLES = ("NEO4J_PASSWORD", "NEO4J_AUTH")
_PRIVATE_PREFIX = "NOUS_"


class CommandLineExecutor:
    """What the command-line executors share: their settings, an environment cleaned of
    Nous's secrets, and the argv with the prompt hidden for the record."""

    def __init__(self, settings: ExecutorSettings, *, env: Mapping[str, str]) -> None:
        self._settings = settings
        self._env = child_env(env)

    def command_for(self, request: ExecutionRequest) -> list[str]:
        """The argv for ``request``, with the prompt replaced by a placeholder."""
        return self._argv(request, PROMPT_PLACEHOLDER)

    def _argv(self, request: ExecutionRequest, prompt: str) -> list[str]:
        raise NotImplementedError

    async def _run(
        self, request: ExecutionRequest, command: list[str], what: str
    ) -> ProcessResult | ExecutionResult:
        """Run the argv for ``request`` (``what`` names the program in errors).

        The finished process, or a failed result when the program could not
        start or ran past its timeout (its output kept).
        """
        argv = self._argv(request, positional(request.prompt))
        proc = await spawn(argv, command, request, self._settings, self._env, what)
        if isinstance(proc, ExecutionResult) or not proc.timed_out:
            return proc
        error = timeout_error(request.timeout_s or self._settings.timeout_s)
        return from_process(proc, command, success=False, output=proc.stdout, error=error)


def child_env(base: Mapping[str, str]) -> dict[str, str]:
    """``base`` minus Nous's secrets and settings and the CLI's nesting variables."""
    dropped = (*_NESTING_VARIABLES, *_PRIVATE_VARIABLES)
    return {
        key: value
        for key, value in base.items()
        if key not in dropped and not key.startswith(_PRIVATE_PREFIX)
    }
