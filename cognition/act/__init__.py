"""Act: hand a decided action to an executor and bring back what came of it."""

from __future__ import annotations

from cognition.act.executors import (
    DEFAULT_TOPOLOGY,
    FUNCTION_PARAM,
    PROMPT_PLACEHOLDER,
    ClaudeCodeExecutor,
    ClaudeFlowExecutor,
    DescribesCommand,
    DryRunExecutor,
    ExecutionRequest,
    ExecutionResult,
    Executor,
    InternalExecutor,
    InternalFunction,
)
from cognition.act.executors.process import ProcessResult, run_process

__all__ = [
    "DEFAULT_TOPOLOGY",
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
    "ProcessResult",
    "run_process",
]
