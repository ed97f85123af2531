"""Writing decisions and what came of them: the access layer for ``cypher/decide/``.

A decision is written in one statement with everything that explains it
(its observations, steps, recall, pattern, template, episode, heuristics);
executions and escalations hang off it as they happen.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from graph.models import (
    Decision,
    Escalation,
    Execution,
    Observation,
    ReasoningStep,
    new_id,
    utc_now,
)
from graph.settings import GoalSettings
from graph.store.mapping import changes_as_properties, from_properties, to_properties
from graph.store.memory import Memory

log = logging.getLogger(__name__)


class DecisionStore:
    """Decisions, executions and escalations of one agent."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    async def unprocessed_observations(self, limit: int) -> list[Observation]:
        """Observations no decision has considered yet, oldest first."""
        rows = await self.memory.read("decide/unprocessed_observations", limit=limit)
        return [from_properties(Observation, r, agent_id=self.memory.agent_id) for r in rows]

    async def observations_by_id(self, ids: Sequence[str]) -> list[Observation]:
        """Observations by id, oldest first."""
        rows = await self.memory.read("decide/observations_by_id", ids=list(ids))
        return [from_properties(Observation, r, agent_id=self.memory.agent_id) for r in rows]

    async def waiting_decisions(self, now: datetime, paths: Sequence[str]) -> list[dict[str, Any]]:
        """Waiting or investigating decisions that are due, or about one of ``paths``."""
        return await self.memory.read("decide/waiting_decisions", now=now, paths=list(paths))

    async def record_decision(
        self,
        decision: Decision,
        steps: Sequence[ReasoningStep],
        *,
        observation_ids: Sequence[str],
        recalled_ids: Sequence[str] = (),
        pattern_key: str | None = None,
        template: Mapping[str, Any] | None = None,
        episode_id: str | None = None,
        heuristic_ids: Sequence[str] = (),
        superseded_ids: Sequence[str] = (),
        frame: str | None = None,
    ) -> str:
        """Write the decision and its explanation; mark its observations processed.

        ``frame`` names the frame the decision was made in; its usage count
        goes up in the same transaction.
        """
        template_row = None
        if template is not None:
            template_row = {"id": new_id(), **dict(template)}
        rows = await self.memory.write(
            "decide/record_decision",
            decision=to_properties(decision),
            observation_ids=list(observation_ids),
            steps=[to_properties(s) for s in steps],
            recalled_ids=list(recalled_ids),
            pattern={"id": new_id(), "key": pattern_key} if pattern_key else None,
            template=template_row,
            episode_id=episode_id,
            heuristic_ids=list(heuristic_ids),
            superseded_ids=list(superseded_ids),
            frame=frame,
        )
        return str(rows[0]["id"])

    async def start_execution(self, execution: Execution) -> str:
        """Record that an action starts (``EXECUTED_AS`` from its decision)."""
        rows = await self.memory.write(
            "decide/start_execution",
            execution=to_properties(execution),
            decision_id=execution.decision_id,
            retry_of=execution.retry_of,
        )
        return str(rows[0]["id"])

    async def finish_execution(self, execution_id: str, **result: Any) -> None:
        """Record how an execution ended."""
        result.setdefault("ended_at", utc_now())
        await self.memory.write(
            "decide/finish_execution",
            execution_id=execution_id,
            result=changes_as_properties(result),
        )

    async def settle(self, decision_id: str, **changes: Any) -> None:
        """Update a decision's status, outcome, or when to look at it again."""
        await self.memory.write(
            "decide/settle_decision",
            decision_id=decision_id,
            changes=changes_as_properties(changes),
        )

    async def record_escalation(self, escalation: Escalation) -> str:
        """Hand a decision to a person."""
        rows = await self.memory.write(
            "decide/record_escalation",
            escalation=to_properties(escalation),
            decision_id=escalation.decision_id,
        )
        # A person must hear of it: the log says what to run to read and close it.
        log.warning(
            "escalation %s (%s priority) for decision %s: %s; see `nous escalations show %s`",
            escalation.id,
            escalation.priority,
            escalation.decision_id,
            escalation.reason[:160],
            escalation.id,
        )
        return str(rows[0]["id"])

    async def upsert_goals(self, goals: Sequence[GoalSettings]) -> None:
        """Make the configured goals ``Goal`` nodes (matched by description)."""
        rows = [
            {"id": new_id(), "description": g.description, "priority": g.priority, "at": utc_now()}
            for g in goals
        ]
        if rows:
            await self.memory.write("decide/upsert_goals", rows=rows)
