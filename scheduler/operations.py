"""What the daemon is doing now, read from the graph: the status line's and ``nous status``'s.

Read from the graph rather than from the running process, so ``nous status``
in another terminal sees the same figures as the daemon's own status line.
"""

from __future__ import annotations

from dataclasses import dataclass

from cognition.act.budget import WINDOW_S, ActionBudget
from graph.store.memory import Memory


@dataclass(frozen=True)
class Operations:
    """Actions started in the last hour, executions running, escalations open."""

    started_last_hour: int
    running: int
    open_escalations: int


async def read_operations(memory: Memory) -> Operations:
    """The figures of ``cypher/audit/operations.cypher`` for this agent."""
    row = await memory.audit.operations(WINDOW_S)
    return Operations(
        started_last_hour=row.started, running=row.running, open_escalations=row.open_escalations
    )


def describe(ops: Operations, actions_per_hour: int) -> str:
    """``budget 3/20 this hour · running 1 · escalations open 2``."""
    return (
        f"budget {ops.started_last_hour}/{actions_per_hour} this hour · running {ops.running}"
        f" · escalations open {ops.open_escalations}"
    )


async def operations_summary(memory: Memory, budget: ActionBudget) -> str:
    """The status line's part on acting: budget used, running executions, open escalations."""
    snapshot = budget.snapshot()
    return describe(await read_operations(memory), snapshot.actions_per_hour)
