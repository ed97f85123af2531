"""Executors: hand an action to Claude Code, claude-flow, a command, a Python function, or nobody.

Every executor takes an :class:`ExecutionRequest` and returns an
:class:`ExecutionResult`; a failure to run is a result with ``success=False``
and an ``error`` that says why, never an exception. The child processes run in
the request's root with a timeout, their process group killed when it passes
(see :mod:`cognition.act.executors.process`). The environment a child gets is the one
handed to the executor's constructor, minus the variables that make the Claude
Code CLI refuse to start nested; executors never read the process environment.
"""

from __future__ import annotations

from collections.abc import Mapping

from cognition.act.executors.base import (
    EXCERPT_CHARS,
    PROMPT_PLACEHOLDER,
    DescribesCommand,
    ExecutionRequest,
    ExecutionResult,
    Executor,
)
from cognition.act.executors.claude_code import ClaudeCodeExecutor
from cognition.act.executors.claude_flow import DEFAULT_TOPOLOGY, ClaudeFlowExecutor
from cognition.act.executors.command import CommandExecutor
from cognition.act.executors.dry_run import DryRunExecutor
from cognition.act.executors.internal import FUNCTION_PARAM, InternalExecutor, InternalFunction
from graph.models import ActionTarget
from graph.settings import ExecutorSettings

__all__ = [
    "DEFAULT_TOPOLOGY",
    "EXCERPT_CHARS",
    "FUNCTION_PARAM",
    "PROMPT_PLACEHOLDER",
    "ClaudeCodeExecutor",
    "ClaudeFlowExecutor",
    "CommandExecutor",
    "DescribesCommand",
    "DryRunExecutor",
    "ExecutionRequest",
    "ExecutionResult",
    "Executor",
    "InternalExecutor",
    "InternalFunction",
    "executors_for",
]


def executors_for(
    settings: ExecutorSettings, environ: Mapping[str, str], internal: InternalExecutor
) -> dict[ActionTarget, Executor]:
    """One executor per target; all of them dry runs when ``executors.dry_run`` is set.

    ``internal`` has its functions registered by the caller; ``environ`` is
    what the child processes get.
    """
    real: dict[ActionTarget, Executor] = {
        ActionTarget.CLAUDE_CODE: ClaudeCodeExecutor(settings, env=environ),
        ActionTarget.CLAUDE_FLOW: ClaudeFlowExecutor(settings, env=environ),
        ActionTarget.INTERNAL: internal,
        ActionTarget.COMMAND: CommandExecutor(settings, env=environ),
    }
    if settings.dry_run:
        real = {target: DryRunExecutor(executor) for target, executor in real.items()}
    real[ActionTarget.DRY_RUN] = DryRunExecutor()
    return real
