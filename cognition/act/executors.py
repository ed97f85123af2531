"""Executors: hand an action to the Claude Code CLI, claude-flow, a Python function, or nobody.

Every executor takes an :class:`ExecutionRequest` and returns an
:class:`ExecutionResult`; a failure to run is a result with ``success=False``
and an ``error`` that says why, never an exception. The child processes run in
the request's root with a timeout, their process group killed when it passes
(see :mod:`cognition.act.process`). The environment a child gets is the one
handed to the executor's constructor, minus the variables that make the Claude
Code CLI refuse to start nested; executors never read the process environment.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shlex
import time
from collections.abc import Awaitable, Callable, Mapping

from cognition.act.claude_code import ClaudeCodeExecutor, child_env
from cognition.act.results import (
    EXCERPT_CHARS,
    PROMPT_PLACEHOLDER,
    DescribesCommand,
    ExecutionRequest,
    ExecutionResult,
    Executor,
    describe,
    excerpt,
    failure,
    from_process,
    positional,
    spawn,
    timeout_error,
)
from graph.settings import ExecutorSettings

__all__ = [
    "DEFAULT_TOPOLOGY",
    "EXCERPT_CHARS",
    "FUNCTION_PARAM",
    "PROMPT_PLACEHOLDER",
    "ClaudeCodeExecutor",
    "ClaudeFlowExecutor",
    "DescribesCommand",
    "DryRunExecutor",
    "ExecutionRequest",
    "ExecutionResult",
    "Executor",
    "InternalExecutor",
    "InternalFunction",
]

log = logging.getLogger(__name__)

# claude-flow's own default for `swarm init --topology`.
DEFAULT_TOPOLOGY = "hierarchical"
# The key of ``ExecutionRequest.params`` that names an internal function.
FUNCTION_PARAM = "function"

# A topology becomes one argument; this keeps it from ever reading as an option.
_TOPOLOGY = re.compile(r"[a-z][a-z0-9_-]{0,39}")

InternalFunction = Callable[["ExecutionRequest"], Awaitable[object]]
"""An async function run by :class:`InternalExecutor`; what it returns becomes the output."""


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
            detail = excerpt(proc.stderr.strip() or proc.stdout.strip()) or "no output"
            error = f"claude-flow exited with code {proc.return_code}: {detail}"
        return from_process(proc, command, success=success, output=proc.stdout, error=error)

    def _argv(self, request: ExecutionRequest, prompt: str) -> list[str]:
        values = {"{topology}": request.topology or DEFAULT_TOPOLOGY, "{prompt}": prompt}
        return [values.get(arg, arg) for arg in self._settings.claude_flow_command]


class InternalExecutor:
    """Runs a Python async function registered by name.

    ``request.params["function"]`` names the function; it is called with the
    request, and what it returns (``str()`` of it, ``None`` as empty) is the
    output. An exception it raises becomes a failed result.
    """

    name = "internal"

    def __init__(self, settings: ExecutorSettings) -> None:
        self._settings = settings
        self._functions: dict[str, InternalFunction] = {}

    def register(self, name: str, fn: InternalFunction) -> None:
        """Make ``fn`` callable as ``name``; a name can be registered once."""
        if not name:
            raise ValueError("an internal function needs a non-empty name")
        if name in self._functions:
            raise ValueError(f"an internal function named {name!r} is already registered")
        self._functions[name] = fn

    def registered(self) -> list[str]:
        """The names of the registered functions, sorted."""
        return sorted(self._functions)

    def command_for(self, request: ExecutionRequest) -> list[str]:
        """``["internal", <function name>]`` for the record."""
        return ["internal", str(request.params.get(FUNCTION_PARAM, "<missing>"))]

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Call the function ``request.params["function"]`` names, within the timeout."""
        command = self.command_for(request)
        name = request.params.get(FUNCTION_PARAM)
        fn = self._functions.get(name) if isinstance(name, str) else None
        if fn is None:
            known = ", ".join(self.registered()) or "none"
            return failure(
                command,
                f"no internal function named {name!r} is registered (registered: {known})",
            )
        timeout_s = request.timeout_s or self._settings.timeout_s
        started = time.monotonic()
        deadline = asyncio.timeout(timeout_s)
        try:
            async with deadline:
                value = await fn(request)
        except TimeoutError as exc:
            # A TimeoutError the function raised itself is its own failure.
            timed_out = deadline.expired()
            error = f"timed out after {timeout_s:g} s" if timed_out else describe(exc)
            return failure(
                command, error, duration_s=time.monotonic() - started, timed_out=timed_out
            )
        except Exception as exc:
            log.warning("internal function %r failed", name, exc_info=True)
            return failure(command, describe(exc), duration_s=time.monotonic() - started)
        output = "" if value is None else str(value)
        return ExecutionResult(
            success=True,
            return_code=None,
            output=excerpt(output),
            error=None,
            duration_s=time.monotonic() - started,
            timed_out=False,
            command=command,
        )


class DryRunExecutor:
    """Runs nothing: records what ``target`` would have run and reports success."""

    name = "dry_run"

    def __init__(self, target: Executor | None = None) -> None:
        self._target = target

    def command_for(self, request: ExecutionRequest) -> list[str]:
        """What the target would run, or ``[<target name>]`` if it cannot say."""
        if isinstance(self._target, DescribesCommand):
            return self._target.command_for(request)
        return [self._target.name if self._target is not None else self.name]

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Return a successful result that says nothing was executed."""
        command = self.command_for(request)
        output = (
            f"dry run, nothing executed: would have run {shlex.join(command)} in {request.root}"
        )
        return ExecutionResult(
            success=True,
            return_code=None,
            output=output,
            error=None,
            duration_s=0.0,
            timed_out=False,
            command=command,
        )
