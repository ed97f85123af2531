"""What a person changes in the memory through ``nous``: the access layer for ``cypher/admin/``.

Goals added and completed, censors lifted, escalations closed (and their
decision handed back to the loop), heuristics retired. Nothing is deleted:
each change sets a status and keeps the person's note. Each method returns
the changed node's typed row, or None when this agent has no such node.
"""

from __future__ import annotations

from datetime import datetime

from graph.models import DecisionStatus, Goal
from graph.store.agent_graph import AgentGraph
from graph.store.driver import Row
from graph.store.mapping import to_properties
from graph.store.rows import R, from_stored
from graph.store.rows.audit import CensorLifted, EscalationClosed, GoalDone, HeuristicRetired


class AdminStore:
    """A person's changes to one agent's memory."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def add_goal(self, goal: Goal) -> str:
        """Add a standing goal; return its id."""
        await self.graph.write("admin/add_goal", goal=to_properties(goal))
        return goal.id

    async def complete_goal(self, goal_id: str, at: datetime) -> GoalDone | None:
        """Mark a goal done (recall stops showing it)."""
        rows = await self.graph.write("admin/complete_goal", goal_id=goal_id, at=at)
        return _first(GoalDone, rows)

    async def lift_censor(self, censor_id: str, note: str, at: datetime) -> CensorLifted | None:
        """Lift a censor: it stops blocking and warning, and stays in the graph."""
        rows = await self.graph.write("admin/lift_censor", censor_id=censor_id, note=note, at=at)
        return _first(CensorLifted, rows)

    async def close_escalation(
        self, escalation_id: str, status: str, note: str, at: datetime, *, retry: bool
    ) -> EscalationClosed | None:
        """Resolve or dismiss an escalation; with ``retry`` its decision is decided again."""
        rows = await self.graph.write(
            "admin/close_escalation",
            escalation_id=escalation_id,
            status=status,
            note=note,
            at=at,
            retry=retry,
            retry_status=DecisionStatus.RETRY_REQUESTED.value,
        )
        return _first(EscalationClosed, rows)

    async def retire_heuristic(
        self, heuristic_id: str, note: str, at: datetime
    ) -> HeuristicRetired | None:
        """Retire a heuristic (pruned, never deleted): no prompt carries it any more."""
        rows = await self.graph.write(
            "admin/retire_heuristic", heuristic_id=heuristic_id, note=note, at=at
        )
        return _first(HeuristicRetired, rows)


def _first(row: type[R], rows: list[Row]) -> R | None:
    return from_stored(row, rows[0]) if rows else None
