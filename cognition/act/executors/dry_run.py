"""The dry-run executor: records what would have run, runs nothing."""

from __future__ import annotations

import shlex

from cognition.act.executors.base import (
    DescribesCommand,
    ExecutionRequest,
    ExecutionResult,
    Executor,
)


class DryRunExecutor:
    """Runs nothing: records what ``target`` would have run and reports success."""

    name = "dry_run"
    dry_run = True
    """Its results are recorded, never learned from (see :mod:`cognition.learn.settle`)."""

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
