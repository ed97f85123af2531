"""The claude-flow executor: ``ExecutorSettings.claude_flow_command`` run in the watched root."""

from __future__ import annotations

import re
from collections.abc import Mapping

from cognition.act.executors.base import (
    EXCERPT_CHARS,
    PROMPT_PLACEHOLDER,
    ExecutionRequest,
    ExecutionResult,
    failure,
    from_process,
    positional,
    spawn,
    timeout_error,
)
from cognition.act.executors.claude_code import child_env
from cognition.text import clip
from graph.settings import ExecutorSettings

# claude-flow's own default for `swarm init --topology`.
DEFAULT_TOPOLOGY = "hierarchical"

# A topology becomes one argument; this keeps it from ever reading as an option.
_TOPOLOGY = re.compile(r"[a-z][a-z0-9_-]{0,39}")


class ClaudeFlowExecutor:
    """Runs ``ExecutorSettings.claude_flow_command`` in the request's root.

    Arguments that are exactly ``{topology}`` or ``{prompt}`` are replaced by
    the request's topology and prompt, each as one whole argument; nothing
    goes through a shell. Success is a zero exit code.
    """

    name = "claude_flow"

    def __init__(self, settings: ExecutorSettings, *, env: Mapping[str, str]) -> None:
        self._settings = settings
        self._env = child_env(env)

    def command_for(self, request: ExecutionRequest) -> list[str]:
        """The argv for ``request``, with the prompt replaced by a placeholder."""
        return self._argv(request, PROMPT_PLACEHOLDER)

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Run the claude-flow command for ``request``."""
        command = self.command_for(request)
        topology = request.topology or DEFAULT_TOPOLOGY
        if not _TOPOLOGY.fullmatch(topology):
            return failure(command, f"not a claude-flow topology name: {topology!r}")
        if not command:
            return failure(command, "executors.claude_flow_command is empty")
        argv = self._argv(request, positional(request.prompt))
        proc = await spawn(argv, command, request, self._settings, self._env, "claude-flow")
        if isinstance(proc, ExecutionResult):
            return proc
        success = not proc.timed_out and proc.return_code == 0
        error: str | None = None
        if proc.timed_out:
            error = timeout_error(request.timeout_s or self._settings.timeout_s)
        elif not success:
            detail = clip(proc.stderr.strip() or proc.stdout.strip(), EXCERPT_CHARS, keep_tail=True)
            detail = detail or "no output"
            error = f"claude-flow exited with code {proc.return_code}: {detail}"
        return from_process(proc, command, success=success, output=proc.stdout, error=error)

    def _argv(self, request: ExecutionRequest, prompt: str) -> list[str]:
        values = {"{topology}": request.topology or DEFAULT_TOPOLOGY, "{prompt}": prompt}
        return [values.get(arg, arg) for arg in self._settings.claude_flow_command]
