"""The claude-flow executor: ``ExecutorSettings.claude_flow_command`` run in the watched root.

The default command is today's claude-flow CLI (v2 alpha) with the task as
its objective: ``npx claude-flow@alpha swarm "<task>" --strategy <s> --mode
<topology> --claude --no-auto-permissions --non-interactive --output-format
json``. Its ``--claude`` mode starts Claude Code, and claude-flow skips
Claude Code's permission prompts unless told ``--no-auto-permissions``
(headless runs included); Nous never lets it skip them unless
``executors.claude_flow_skip_permissions`` says so. A command that does not
pass the task (``{prompt}``) is refused: it would "succeed" doing nothing.
"""

from __future__ import annotations

import re

from cognition.act.executors.base import (
    EXCERPT_CHARS,
    ExecutionRequest,
    ExecutionResult,
    failure,
    from_process,
)
from cognition.act.executors.claude_code import read_result_json
from cognition.act.executors.command_line import CommandLineExecutor
from cognition.text import clip

# claude-flow's own defaults for the coordination mode (topology) and strategy.
DEFAULT_TOPOLOGY = "hierarchical"
DEFAULT_STRATEGY = "auto"
PROMPT = "{prompt}"
NO_AUTO_PERMISSIONS = "--no-auto-permissions"
_SKIPPING = ("--dangerously-skip-permissions", "--auto-permissions")

# A topology becomes one argument; this keeps it from ever reading as an option.
_TOPOLOGY = re.compile(r"[a-z][a-z0-9_-]{0,39}")


class ClaudeFlowExecutor(CommandLineExecutor):
    """Runs ``ExecutorSettings.claude_flow_command`` in the request's root.

    Arguments that are exactly ``{topology}``, ``{strategy}`` or ``{prompt}``
    are replaced by the request's topology, strategy and prompt, each as one
    whole argument; nothing goes through a shell. Success is a zero exit code
    and, when it prints one, a result object (``{"type": "result", ...}``,
    as Claude Code's JSON output) that does not report an error.
    """

    name = "claude_flow"

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Run the claude-flow command for ``request``."""
        command = self.command_for(request)
        for word in (request.topology or DEFAULT_TOPOLOGY, request.strategy or DEFAULT_STRATEGY):
            if not _TOPOLOGY.fullmatch(word):
                return failure(command, f"not a claude-flow topology or strategy name: {word!r}")
        if not command:
            return failure(command, "executors.claude_flow_command is empty")
        if PROMPT not in self._settings.claude_flow_command:
            return failure(
                command,
                "executors.claude_flow_command has no {prompt}: the task would not be passed",
            )
        proc = await self._run(request, command, "claude-flow")
        if isinstance(proc, ExecutionResult):
            return proc
        success = proc.return_code == 0
        error: str | None = None
        output = proc.stdout
        payload = read_result_json(proc.stdout)
        if not success:
            detail = clip(proc.stderr.strip() or proc.stdout.strip(), EXCERPT_CHARS, keep_tail=True)
            detail = detail or "no output"
            error = f"claude-flow exited with code {proc.return_code}: {detail}"
        elif payload is not None:
            text = payload.get("result")
            output = text if isinstance(text, str) else output
            if payload.get("is_error") is True or payload.get("subtype") not in (None, "success"):
                success = False
                said = clip(str(text or "no message"), EXCERPT_CHARS, keep_tail=True)
                error = f"claude-flow reported {payload.get('subtype') or 'an error'}: {said}"
        return from_process(proc, command, success=success, output=output, error=error)

    def _argv(self, request: ExecutionRequest, prompt: str) -> list[str]:
        values = {
            "{topology}": request.topology or DEFAULT_TOPOLOGY,
            "{strategy}": request.strategy or DEFAULT_STRATEGY,
            PROMPT: prompt,
        }
        argv = [values.get(arg, arg) for arg in self._settings.claude_flow_command]
        if not self._settings.claude_flow_skip_permissions:
            # Never let claude-flow start Claude Code with its permission prompts skipped.
            argv = [arg for arg in argv if arg not in _SKIPPING]
            if "--claude" in argv and NO_AUTO_PERMISSIONS not in argv:
                argv.append(NO_AUTO_PERMISSIONS)
        return argv
