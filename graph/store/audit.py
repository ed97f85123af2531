"""What a person reads of the memory: the access layer for ``cypher/audit/``.

``nous status``, ``nous why``, the lists of ``nous escalations``, ``censors``,
``goals``, ``desires``, ``heuristics`` and ``calibration``, and the status
line's operations all read through here; every query is a read. Rows come
back as the queries return them (they are printed as tables or JSON).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graph.store.agent_graph import AgentGraph
from graph.store.driver import Row

AREA = "audit"
# The parts of a decision's story beside the decision itself, and their queries.
_STORY = (
    ("steps", "audit/decision_steps"),
    ("executions", "audit/executions_for_decision"),
    ("escalations", "audit/escalations_for_decision"),
    ("learned", "audit/lessons_for_decision"),
)


class AuditStore:
    """The read-only views of one agent's memory that people look at."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    @property
    def agent_id(self) -> str:
        """The agent whose memory this is."""
        return self.graph.agent_id

    async def audit(self, name: str, params: dict[str, Any]) -> list[Row]:
        """Run the audit query ``name`` (``cypher/audit/<name>.cypher``) with ``params``."""
        return await self.graph.read(f"{AREA}/{name}", **params)

    async def operations(self, window_s: float) -> Row:
        """Actions started in the last ``window_s``, executions running, escalations open."""
        rows = await self.graph.read("audit/operations", window_s=window_s)
        return rows[0] if rows else {}

    async def memory_counts(self) -> dict[str, int]:
        """Nodes of each label this agent has."""
        rows = await self.graph.read("audit/memory_counts")
        return {r["label"]: r["count"] for r in rows}

    async def recent_decisions(self, limit: int) -> list[Row]:
        """The latest decisions, newest first."""
        return await self.graph.read("audit/recent_decisions", limit=limit)

    async def latest_events(self, event_type: str, limit: int) -> list[Row]:
        """The latest events of one type (``daemon_started``), newest first."""
        return await self.graph.read("audit/latest_events", type=event_type, limit=limit)

    async def decision_story(self, target: str, paths: Sequence[str]) -> dict[str, Any] | None:
        """Everything about the decision ``target`` names, or None.

        ``target`` is tried as a decision id, then each of ``paths`` (root-relative,
        in order) for its latest decision.
        """
        rows = await self.graph.read("audit/decision", decision_id=target)
        for path in [] if rows else paths:
            latest = await self.graph.read("audit/latest_decision_for_path", path=path)
            if latest:
                rows = await self.graph.read("audit/decision", decision_id=latest[0]["id"])
                break
        if not rows:
            return None
        decision_id = rows[0]["decision"]["id"]
        story = dict(rows[0])
        for key, name in _STORY:
            story[key] = await self.graph.read(name, decision_id=decision_id)
        return story

    async def open_escalations(self, limit: int) -> list[Row]:
        """Escalations still open, newest first."""
        return await self.graph.read("audit/open_escalations", limit=limit)

    async def escalation(self, escalation_id: str) -> Row | None:
        """One escalation with its decision, or None."""
        return _first(await self.graph.read("audit/escalation", escalation_id=escalation_id))

    async def censors(self, limit: int) -> list[Row]:
        """Every censor, active ones first."""
        return await self.graph.read("audit/censors", limit=limit)

    async def goals(self, limit: int) -> list[Row]:
        """Every goal, open ones first."""
        return await self.graph.read("audit/goals", limit=limit)

    async def calibration(self) -> list[Row]:
        """Decisions and successes per confidence bucket."""
        return await self.graph.read("audit/calibration")

    async def desires(self, limit: int) -> list[Row]:
        """Self-improvement's desires, newest first."""
        return await self.graph.read("audit/desires", limit=limit)

    async def heuristics(self, limit: int) -> list[Row]:
        """The heuristics, active ones first."""
        return await self.graph.read("audit/heuristics", limit=limit)

    async def heuristic(self, heuristic_id: str) -> Row | None:
        """One heuristic with the trajectories it was distilled from, or None."""
        return _first(await self.graph.read("audit/heuristic", heuristic_id=heuristic_id))


def _first(rows: list[Row]) -> Row | None:
    return rows[0] if rows else None
