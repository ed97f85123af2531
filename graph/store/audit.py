"""What a person reads of the memory: the access layer for ``cypher/audit/``.

``nous status``, ``nous why``, the lists of ``nous escalations``, ``censors``,
``goals``, ``desires``, ``heuristics`` and ``calibration``, and the status
line's operations all read through here; every query is a read. Rows come
back as the queries return them (they are printed as tables or JSON).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graph.store.agent_graph import AgentGraph
from graph.store.rows import R, from_stored
from graph.store.rows.audit import (
    AttemptRow,
    AuditTable,
    CalibrationRow,
    CensorListed,
    DecisionStory,
    DesireListed,
    EscalationDetail,
    EscalationNode,
    EscalationRaised,
    EventRow,
    GoalListed,
    HeuristicApplied,
    HeuristicDetail,
    HeuristicListed,
    Learned,
    ObservationSeen,
    OpenEscalation,
    Operations,
    PastDecision,
    PatternSeen,
    RecentDecision,
    StepRow,
    TemplateUsed,
    TrajectoryListed,
    TrialListed,
)
from graph.store.rows.runs import DeferredActions, LastRun
from graph.store.rows.session import HeuristicRow

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

    async def audit(self, name: str, params: Mapping[str, object]) -> AuditTable:
        """Run the audit query ``name`` (``cypher/audit/<name>.cypher``) with ``params``."""
        rows = await self.graph.read(f"{AREA}/{name}", **params)
        columns = tuple(rows[0]) if rows else ()
        return AuditTable(columns, tuple(tuple(r[c] for c in columns) for r in rows))

    async def operations(self, window_s: float) -> Operations:
        """Actions started in the last ``window_s``, executions running, escalations open."""
        rows = await self.graph.read("audit/operations", window_s=window_s)
        return from_stored(Operations, rows[0]) if rows else Operations()

    async def last_runs(self, scan: int = 500) -> list[LastRun]:
        """Each template's latest execution among the agent's latest ``scan``."""
        rows = await self.graph.read("audit/last_runs", scan=scan)
        return [from_stored(LastRun, r) for r in rows]

    async def deferred_actions(self) -> DeferredActions:
        """How many actions wait behind the budget, and when the first is tried again."""
        rows = await self.graph.read("audit/deferred_actions")
        return from_stored(DeferredActions, rows[0]) if rows else DeferredActions()

    async def memory_counts(self) -> dict[str, int]:
        """Nodes of each label this agent has."""
        rows = await self.graph.read("audit/memory_counts")
        return {str(r["label"]): int(r["count"]) for r in rows}

    async def recent_decisions(self, limit: int) -> list[RecentDecision]:
        """The latest decisions, newest first."""
        rows = await self.graph.read("audit/recent_decisions", limit=limit)
        return [from_stored(RecentDecision, r) for r in rows]

    async def latest_events(self, event_type: str, limit: int) -> list[EventRow]:
        """The latest events of one type (``daemon_started``), newest first."""
        rows = await self.graph.read("audit/latest_events", type=event_type, limit=limit)
        return [from_stored(EventRow, r) for r in rows]

    async def decision_story(self, target: str, paths: Sequence[str]) -> DecisionStory | None:
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
        return await self._story(rows[0])

    async def _story(self, row: Mapping[str, Any]) -> DecisionStory:
        from graph.models import Decision  # the node model: never on a hook's path
        from graph.store.mapping import from_properties

        decision = from_properties(Decision, row["decision"], agent_id=self.agent_id)
        parts = {key: await self.graph.read(name, decision_id=decision.id) for key, name in _STORY}
        pattern, template = row["pattern"], row["template"]
        return DecisionStory(
            decision=decision,
            observations=_all(ObservationSeen, row["observations"]),
            recalled=_all(PastDecision, row["recalled"]),
            pattern=from_stored(PatternSeen, pattern) if pattern else None,
            template=from_stored(TemplateUsed, template) if template else None,
            heuristics=_all(HeuristicApplied, row["heuristics"]),
            episode_id=row["episode_id"],
            steps=_all(StepRow, parts["steps"]),
            executions=_all(AttemptRow, parts["executions"]),
            escalations=_all(EscalationRaised, parts["escalations"]),
            learned=_all(Learned, parts["learned"]),
        )

    async def open_escalations(self, limit: int) -> list[OpenEscalation]:
        """Escalations still open, newest first."""
        rows = await self.graph.read("audit/open_escalations", limit=limit)
        return [from_stored(OpenEscalation, r) for r in rows]

    async def escalation(self, escalation_id: str) -> EscalationDetail | None:
        """One escalation with its decision, or None."""
        rows = await self.graph.read("audit/escalation", escalation_id=escalation_id)
        if not rows:
            return None
        row = dict(rows[0])
        node = from_stored(EscalationNode, row.pop("escalation"))
        return from_stored(EscalationDetail, {**row, "escalation": node})

    async def censors(self, limit: int) -> list[CensorListed]:
        """Every censor, active ones first."""
        return list(_all(CensorListed, await self.graph.read("audit/censors", limit=limit)))

    async def goals(self, limit: int) -> list[GoalListed]:
        """Every goal, open ones first."""
        return list(_all(GoalListed, await self.graph.read("audit/goals", limit=limit)))

    async def calibration(self) -> list[CalibrationRow]:
        """Decisions and successes per confidence bucket."""
        return list(_all(CalibrationRow, await self.graph.read("audit/calibration")))

    async def desires(self, limit: int) -> list[DesireListed]:
        """Self-improvement's desires, newest first."""
        return list(_all(DesireListed, await self.graph.read("audit/desires", limit=limit)))

    async def heuristics(self, limit: int) -> list[HeuristicListed]:
        """The heuristics, active ones first."""
        rows = await self.graph.read("audit/heuristics", limit=limit)
        return list(_all(HeuristicListed, rows))

    async def heuristic(self, heuristic_id: str) -> HeuristicDetail | None:
        """One heuristic with the trajectories it was distilled from, or None."""
        rows = await self.graph.read("audit/heuristic", heuristic_id=heuristic_id)
        if not rows:
            return None
        return HeuristicDetail(
            from_stored(HeuristicRow, rows[0]["heuristic"]),
            _all(TrajectoryListed, rows[0]["trajectories"]),
            _all(TrialListed, rows[0]["trials"]),
        )


def _all(row: type[R], records: Sequence[Mapping[str, Any]]) -> tuple[R, ...]:
    return tuple(from_stored(row, r) for r in records)
