"""Executors: hand an action to the Claude Code CLI, claude-flow, a Python function, or nobody.

Every executor takes an :class:`ExecutionRequest` and returns an
:class:`ExecutionResult`; a failure to run is a result with ``success=False``
and an ``error`` that says why, never an exception. The child processes run in
the request's root with a timeout, their process group killed when it passes
(see :mod:`cognition.act.process`). The environment a child gets is the one
handed to the executor's constructor, minus the variables that make the Claude
Code CLI refuse to start nested; executors never read ``os.environ``.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import re
import shlex
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from cognition.act.process import ProcessResult, run_process
from graph.settings import ExecutorSettings

log = logging.getLogger(__name__)

# Output and error text kept on a result (and so on the Execution node).
EXCERPT_CHARS = 4000
# Stands in for the prompt in a recorded command, which would otherwise carry
# file contents into logs and the graph.
PROMPT_PLACEHOLDER = "<prompt>"
# claude-flow's own default for `swarm init --topology`.
DEFAULT_TOPOLOGY = "hierarchical"
# The key of ``ExecutionRequest.params`` that names an internal function.
FUNCTION_PARAM = "function"

# Set by a running Claude Code session; a child CLI that sees them refuses to
# start ("cannot be launched inside another Claude Code session").
_NESTING_VARIABLES = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")
# A topology becomes one argument; this keeps it from ever reading as an option.
_TOPOLOGY = re.compile(r"[a-z][a-z0-9_-]{0,39}")

InternalFunction = Callable[["ExecutionRequest"], Awaitable[object]]
"""An async function run by :class:`InternalExecutor`; what it returns becomes the output."""


@dataclass(frozen=True, slots=True)
class ExecutionRequest:
    """One action to execute; ``execution_id`` is the ``Execution`` node's id (a UUID)."""

    execution_id: str
    prompt: str
    root: Path
    timeout_s: float | None = None
    """``None`` means the executor's default (``ExecutorSettings.timeout_s``)."""
    params: dict[str, Any] = field(default_factory=dict)
    topology: str | None = None
    """claude-flow swarm topology; ``None`` means :data:`DEFAULT_TOPOLOGY`."""

    def __post_init__(self) -> None:
        # The Claude Code CLI rejects a --session-id that is not a UUID, and
        # the id joins its session to the Execution node: refuse early.
        try:
            canonical = str(uuid.UUID(self.execution_id))
        except ValueError:
            canonical = ""
        if canonical != self.execution_id.lower():
            raise ValueError(f"execution_id must be a UUID string, not {self.execution_id!r}")
        if self.timeout_s is not None and not self.timeout_s > 0:
            raise ValueError(f"timeout_s must be positive, not {self.timeout_s!r}")


@dataclass(frozen=True, slots=True)
class ExecutionResult:
    """What came of one execution, ready to be recorded."""

    success: bool
    return_code: int | None
    output: str
    error: str | None
    duration_s: float
    timed_out: bool
    command: list[str]
    """What ran (or would have), with the prompt replaced by :data:`PROMPT_PLACEHOLDER`."""
    session_id: str | None = None
    cost_usd: float | None = None
    num_turns: int | None = None


class Executor(Protocol):
    """Something that can carry out an :class:`ExecutionRequest`."""

    name: str

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Carry out ``request``; failures are results, not exceptions."""
        ...


@runtime_checkable
class DescribesCommand(Protocol):
    """An executor that can say what it would run, without running it."""

    def command_for(self, request: ExecutionRequest) -> list[str]:
        """The command for ``request``, prompt replaced by :data:`PROMPT_PLACEHOLDER`."""
        ...


class ClaudeCodeExecutor:
    """Runs ``claude -p <prompt> --output-format json`` in the request's root.

    Success is read from the CLI's JSON result (``is_error`` false, subtype
    ``success``) together with a zero exit code; the session id, cost and
    number of turns come from the same result.
    """

    name = "claude_code"

    def __init__(self, settings: ExecutorSettings, *, env: Mapping[str, str]) -> None:
        self._settings = settings
        self._env = _child_env(env)

    def command_for(self, request: ExecutionRequest) -> list[str]:
        """The argv for ``request``, with the prompt replaced by a placeholder."""
        return self._argv(request, PROMPT_PLACEHOLDER)

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Run the CLI for ``request`` and read its JSON result."""
        command = self.command_for(request)
        if not request.prompt.strip():
            return _failure(command, "the prompt is empty: there is nothing to ask Claude Code")
        argv = self._argv(request, _positional(request.prompt))
        timeout_s = request.timeout_s or self._settings.timeout_s
        log.info("execution %s: running %s in %s", request.execution_id, command, request.root)
        try:
            proc = await run_process(
                argv,
                cwd=request.root,
                env=self._env,
                timeout_s=timeout_s,
                output_cap_bytes=self._settings.output_cap_bytes,
            )
        except OSError as exc:
            return _failure(command, _start_error(exc, argv, "the Claude Code CLI"))
        if proc.timed_out:
            error = _timeout_error(timeout_s)
            return _from_process(proc, command, success=False, output=proc.stdout, error=error)
        return _read_claude_result(proc, command)

    def _argv(self, request: ExecutionRequest, prompt: str) -> list[str]:
        settings = self._settings
        argv = [settings.claude_binary, "-p", prompt, "--output-format", "json"]
        argv += ["--permission-mode", settings.permission_mode]
        if settings.allowed_tools:
            # One argument, comma-separated: the option takes a variadic list,
            # and a single argument cannot swallow anything that follows it.
            argv += ["--allowedTools", ",".join(settings.allowed_tools)]
        argv += ["--max-turns", str(settings.max_turns), "--session-id", request.execution_id]
        return argv


class ClaudeFlowExecutor:
    """Runs ``ExecutorSettings.claude_flow_command`` in the request's root.

    Arguments that are exactly ``{topology}`` or ``{prompt}`` are replaced by
    the request's topology and prompt, each as one whole argument; nothing
    goes through a shell. Success is a zero exit code.
    """

    name = "claude_flow"

    def __init__(self, settings: ExecutorSettings, *, env: Mapping[str, str]) -> None:
        self._settings = settings
        self._env = _child_env(env)

    def command_for(self, request: ExecutionRequest) -> list[str]:
        """The argv for ``request``, with the prompt replaced by a placeholder."""
        return self._argv(request, PROMPT_PLACEHOLDER)

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Run the claude-flow command for ``request``."""
        command = self.command_for(request)
        topology = request.topology or DEFAULT_TOPOLOGY
        if not _TOPOLOGY.fullmatch(topology):
            return _failure(command, f"not a claude-flow topology name: {topology!r}")
        if not command:
            return _failure(command, "executors.claude_flow_command is empty")
        argv = self._argv(request, _positional(request.prompt))
        timeout_s = request.timeout_s or self._settings.timeout_s
        log.info("execution %s: running %s in %s", request.execution_id, command, request.root)
        try:
            proc = await run_process(
                argv,
                cwd=request.root,
                env=self._env,
                timeout_s=timeout_s,
                output_cap_bytes=self._settings.output_cap_bytes,
            )
        except OSError as exc:
            return _failure(command, _start_error(exc, argv, "claude-flow"))
        success = not proc.timed_out and proc.return_code == 0
        error: str | None = None
        if proc.timed_out:
            error = _timeout_error(timeout_s)
        elif not success:
            detail = _excerpt(proc.stderr.strip() or proc.stdout.strip()) or "no output"
            error = f"claude-flow exited with code {proc.return_code}: {detail}"
        return _from_process(proc, command, success=success, output=proc.stdout, error=error)

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
            return _failure(
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
            error = f"timed out after {timeout_s:g} s" if timed_out else _describe(exc)
            return _failure(
                command, error, duration_s=time.monotonic() - started, timed_out=timed_out
            )
        except Exception as exc:
            log.warning("internal function %r failed", name, exc_info=True)
            return _failure(command, _describe(exc), duration_s=time.monotonic() - started)
        output = "" if value is None else str(value)
        return ExecutionResult(
            success=True,
            return_code=None,
            output=_excerpt(output),
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


def _read_claude_result(proc: ProcessResult, command: list[str]) -> ExecutionResult:
    payload = _result_json(proc.stdout)
    if payload is None:
        detail = _excerpt(proc.stderr.strip() or proc.stdout.strip()) or "no output"
        cut = " (its output passed the cap and was cut)" if proc.truncated else ""
        reason = f"Claude Code exited with code {proc.return_code} without a JSON result{cut}"
        return _from_process(
            proc, command, success=False, output=proc.stdout, error=f"{reason}: {detail}"
        )

    text = payload.get("result")
    subtype = payload.get("subtype")
    reported_ok = payload.get("is_error") is False and subtype == "success"
    success = reported_ok and proc.return_code == 0
    error: str | None = None
    if not reported_ok:
        what = text if isinstance(text, str) and text.strip() else proc.stderr.strip()
        error = f"Claude Code reported {subtype or 'an error'}: {_excerpt(what) or 'no message'}"
    elif not success:
        error = f"Claude Code exited with code {proc.return_code} although its result says success"
    session_id = payload.get("session_id")
    return _from_process(
        proc,
        command,
        success=success,
        output=text if isinstance(text, str) else "",
        error=error,
        session_id=session_id if isinstance(session_id, str) else None,
        cost_usd=_number(payload.get("total_cost_usd")),
        num_turns=_whole(payload.get("num_turns")),
    )


def _result_json(stdout: str) -> dict[str, Any] | None:
    """The CLI's ``{"type": "result", ...}`` object from its output, or None.

    ``--output-format json`` prints one object; with ``--verbose`` it prints a
    list of messages ending in the result; a warning line may precede either.
    """
    candidates = [stdout.strip()]
    candidates += [line.strip() for line in reversed(stdout.splitlines()) if line.strip()]
    for candidate in candidates:
        if not candidate.startswith(("{", "[")):
            continue
        try:
            parsed = json.loads(candidate)
        except ValueError:
            continue
        items = parsed if isinstance(parsed, list) else [parsed]
        for item in reversed(items):
            if isinstance(item, dict) and item.get("type") == "result":
                return item
    return None


def _from_process(
    proc: ProcessResult,
    command: list[str],
    *,
    success: bool,
    output: str,
    error: str | None,
    session_id: str | None = None,
    cost_usd: float | None = None,
    num_turns: int | None = None,
) -> ExecutionResult:
    return ExecutionResult(
        success=success,
        return_code=proc.return_code,
        output=_excerpt(output),
        error=error,
        duration_s=proc.duration_s,
        timed_out=proc.timed_out,
        command=command,
        session_id=session_id,
        cost_usd=cost_usd,
        num_turns=num_turns,
    )


def _failure(
    command: list[str], error: str, *, duration_s: float = 0.0, timed_out: bool = False
) -> ExecutionResult:
    return ExecutionResult(
        success=False,
        return_code=None,
        output="",
        error=error,
        duration_s=duration_s,
        timed_out=timed_out,
        command=command,
    )


def _timeout_error(timeout_s: float) -> str:
    return f"timed out after {timeout_s:g} s; its process group was killed"


def _start_error(exc: OSError, argv: list[str], what: str) -> str:
    program = argv[0]
    if isinstance(exc, FileNotFoundError) and exc.filename == program:
        return f"{what} was not found: {program!r} is not an executable on PATH or a path to one"
    if exc.errno == errno.E2BIG:
        return f"could not start {what}: the prompt is too long to pass as an argument"
    return f"could not start {what} ({program!r}): {exc.strerror or exc}"


def _describe(exc: BaseException) -> str:
    return _excerpt(f"{type(exc).__name__}: {exc}")


def _child_env(base: Mapping[str, str]) -> dict[str, str]:
    return {key: value for key, value in base.items() if key not in _NESTING_VARIABLES}


def _positional(prompt: str) -> str:
    # The prompt is a positional argument; one that starts with "-" would be
    # parsed as an option, so it gets a leading space the model will ignore.
    return f" {prompt}" if prompt.startswith("-") else prompt


def _excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` if short, else its head and tail around a note of what was left out."""
    if len(text) <= limit:
        return text
    head = limit // 2
    tail = limit - head
    omitted = len(text) - head - tail
    return f"{text[:head]}\n[... {omitted} characters omitted ...]\n{text[-tail:]}"


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _whole(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value
