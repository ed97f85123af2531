"""What a killed daemon left behind: the access layer for reconciliation at start.

Unfinished executions with their decisions, the open episodes of earlier
daemon runs, and when the actions of the last hour started (so a restart
does not reset the action budget). The writes that settle them go through
:class:`graph.store.decisions.DecisionStore` and the episode store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graph.models import Decision, Execution
from graph.store.agent_graph import AgentGraph
from graph.store.mapping import from_properties


@dataclass(frozen=True)
class Unfinished:
    """An execution that started and never ended, and its decision."""

    execution: Execution
    decision: Decision


class RecoveryStore:
    """Reads for reconciliation at start, for one agent."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def unfinished_executions(self) -> list[Unfinished]:
        """Executions with no end, oldest first, each with its decision."""
        rows = await self.graph.read("decide/unfinished_executions")
        agent = self.graph.agent_id
        return [
            Unfinished(
                from_properties(Execution, r["execution"], agent_id=agent),
                from_properties(Decision, r["decision"], agent_id=agent),
            )
            for r in rows
        ]

    async def open_daemon_episodes(self, session_id: str) -> list[str]:
        """Ids of the open episodes of earlier daemon runs (not ``session_id``'s)."""
        rows = await self.graph.read("decide/open_daemon_episodes", session_id=session_id)
        return [str(r["id"]) for r in rows]

    async def actions_since(self, since: datetime) -> list[datetime]:
        """When each action started after ``since``, oldest first."""
        rows = await self.graph.read("decide/actions_since", since=since)
        return [r["started"] for r in rows]
