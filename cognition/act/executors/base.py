"""What every executor takes and returns, and the helpers they share.

An executor takes an :class:`ExecutionRequest` and returns an
:class:`ExecutionResult`; a failure to run is a result with ``success=False``
and an ``error`` that says why, never an exception.
"""

from __future__ import annotations

import errno
import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from cognition.act.executors.process import ProcessResult, run_process
from cognition.text import clip
from graph.settings import ExecutorSettings

log = logging.getLogger(__name__)

# Output and error text kept on a result (and so on the Execution node).
EXCERPT_CHARS = 4000
# Stands in for the prompt in a recorded command, which would otherwise carry
# file contents into logs and the graph.
PROMPT_PLACEHOLDER = "<prompt>"


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
    """claude-flow swarm topology; ``None`` means its default."""
    strategy: str | None = None
    """claude-flow swarm strategy; ``None`` means its default."""

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


async def spawn(
    argv: Sequence[str],
    command: list[str],
    request: ExecutionRequest,
    settings: ExecutorSettings,
    env: Mapping[str, str],
    what: str,
) -> ProcessResult | ExecutionResult:
    """Run ``argv`` for ``request`` under the settings' timeout and output cap.

    Returns the process's result, or a failed :class:`ExecutionResult` when
    the program could not be started at all.
    """
    timeout_s = request.timeout_s or settings.timeout_s
    log.info("execution %s: running %s in %s", request.execution_id, command, request.root)
    try:
        return await run_process(
            argv,
            cwd=request.root,
            env=env,
            timeout_s=timeout_s,
            output_cap_bytes=settings.output_cap_bytes,
        )
    except OSError as exc:
        return failure(command, start_error(exc, list(argv), what))


def from_process(
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
        output=clip(output, EXCERPT_CHARS, keep_tail=True),
        error=error,
        duration_s=proc.duration_s,
        timed_out=proc.timed_out,
        command=command,
        session_id=session_id,
        cost_usd=cost_usd,
        num_turns=num_turns,
    )


def failure(
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


def timeout_error(timeout_s: float) -> str:
    return f"timed out after {timeout_s:g} s; its process group was killed"


def start_error(exc: OSError, argv: list[str], what: str) -> str:
    program = argv[0]
    if isinstance(exc, FileNotFoundError) and exc.filename == program:
        return f"{what} was not found: {program!r} is not an executable on PATH or a path to one"
    if exc.errno == errno.E2BIG:
        return f"could not start {what}: the prompt is too long to pass as an argument"
    return f"could not start {what} ({program!r}): {exc.strerror or exc}"


def describe(exc: BaseException) -> str:
    return clip(f"{type(exc).__name__}: {exc}", EXCERPT_CHARS, keep_tail=True)


def positional(prompt: str) -> str:
    # The prompt is a positional argument; one that starts with "-" would be
    # parsed as an option, so it gets a leading space the model will ignore.
    return f" {prompt}" if prompt.startswith("-") else prompt
