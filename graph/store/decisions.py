"""Writing decisions and what came of them: the access layer for ``cypher/decide/``.

A decision is written in one statement with everything that explains it
(its observations, steps, recall, pattern, template, episode, heuristics);
executions and escalations hang off it as they happen.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import TYPE_CHECKING, Any, Unpack

from graph.errors import GraphError
from graph.models import (
    Decision,
    DecisionStatus,
    Escalation,
    Execution,
    Observation,
    OpenDecision,
    ReasoningStep,
    Urgency,
    new_id,
    utc_now,
)
from graph.store.agent_graph import AgentGraph
from graph.store.mapping import changes_as_properties, from_properties, to_properties
from graph.store.rows.decide import DecisionChanges, ExecutionEnd, Settlement, TemplateUse

if TYPE_CHECKING:
    from graph.settings import GoalSettings

log = logging.getLogger(__name__)

S = DecisionStatus
# The order the loop takes unprocessed observations in (seed 000's queue priority).
QUEUE_ORDER = (Urgency.CRITICAL, Urgency.URGENT, Urgency.ROUTINE, Urgency.LOW, Urgency.NOISE)

# Every status a decision may move to from each status: the one place that
# says how a decision's life runs. A new decision is written in one of
# INITIAL; DONE, FAILED, ESCALATED, SUPERSEDED and CLOSED are final.
INITIAL: frozenset[DecisionStatus] = frozenset(
    {S.DECIDED, S.DELIBERATING, S.WAITING, S.INVESTIGATING, S.CLOSED, S.ESCALATED}
)
TRANSITIONS: Mapping[DecisionStatus, frozenset[DecisionStatus]] = {
    S.DECIDED: frozenset({S.ACTING, S.WAITING, S.ESCALATED, S.DONE, S.FAILED}),
    # A chat turn's decision; closed (outcome "abandoned", nothing learned) when its turn was
    # abandoned without a Stop (cypher/chat/open_turn, close_session_turns).
    S.DELIBERATING: frozenset({S.DONE, S.FAILED, S.CLOSED}),
    # A retry is a new execution of the same decision: acting again.
    # Closed: its run was stopped and restarted for newer changes (on_busy: restart).
    S.ACTING: frozenset({S.ACTING, S.DONE, S.FAILED, S.ESCALATED, S.WAITING, S.CLOSED}),
    # A WAIT whose re-check found nothing new is closed (no new decision).
    S.WAITING: frozenset({S.WAITING, S.SUPERSEDED, S.ESCALATED, S.CLOSED}),
    S.INVESTIGATING: frozenset({S.INVESTIGATING, S.SUPERSEDED, S.ESCALATED}),
    S.DONE: frozenset(),
    S.FAILED: frozenset(),
    # A person may resolve an escalation with --retry: its observations are decided anew.
    S.ESCALATED: frozenset({S.RETRY_REQUESTED}),
    S.RETRY_REQUESTED: frozenset(),
    S.SUPERSEDED: frozenset(),
    S.CLOSED: frozenset(),
}
# What the loop looks at again when it is due.
OPEN_FOR_FOLLOW_UP: tuple[DecisionStatus, ...] = (S.WAITING, S.INVESTIGATING)


class DecisionStatusError(GraphError, ValueError):
    """A decision asked to move where its life does not go (a bug, never bad input)."""


def check_transition(current: DecisionStatus, new: DecisionStatus) -> DecisionStatus:
    """``new`` if a decision may move there from ``current``; DecisionStatusError otherwise."""
    if new not in TRANSITIONS[current]:
        allowed = ", ".join(sorted(TRANSITIONS[current])) or "nothing (it is final)"
        raise DecisionStatusError(
            f"a decision cannot go from {current.value} to {new.value} (allowed: {allowed})"
        )
    return new


def _advance(decision: Decision, to: DecisionStatus) -> None:
    # The one place a decision's status changes once it is written: checked against
    # TRANSITIONS, then held by the model the loop goes on reading.
    decision.status = check_transition(decision.status, to)


class DecisionStore:
    """Decisions, executions and escalations of one agent."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def unprocessed_observations(self, limit: int) -> list[Observation]:
        """Observations no decision has considered yet: critical, urgent, the rest; oldest first."""
        rows = await self.graph.read(
            "decide/unprocessed_observations", levels=[u.value for u in QUEUE_ORDER], limit=limit
        )
        return [from_properties(Observation, r, agent_id=self.graph.agent_id) for r in rows]

    async def observations_by_id(self, ids: Sequence[str]) -> list[Observation]:
        """Observations by id, oldest first."""
        rows = await self.graph.read("decide/observations_by_id", ids=list(ids))
        return [from_properties(Observation, r, agent_id=self.graph.agent_id) for r in rows]

    async def waiting_decisions(self, now: datetime, paths: Sequence[str]) -> list[OpenDecision]:
        """Waiting or investigating decisions that are due, or about one of ``paths``."""
        rows = await self.graph.read(
            "decide/waiting_decisions",
            now=now,
            paths=list(paths),
            statuses=[status.value for status in OPEN_FOR_FOLLOW_UP],
        )
        agent_id = self.graph.agent_id
        return [
            OpenDecision(
                decision=from_properties(Decision, row["decision"], agent_id=agent_id),
                observation_ids=list(row["observation_ids"]),
                investigation_findings=list(row["investigation_findings"]),
                investigation_answers=list(row["investigation_answers"]),
                investigation_new=row["investigation_new"],
                investigation_model=row["investigation_model"],
            )
            for row in rows
        ]

    async def settled_files(self, paths: Sequence[str], outcome: str) -> dict[str, str]:
        """Of ``paths``, those whose latest decision is closed with ``outcome``: path -> its id."""
        if not paths:
            return {}
        rows = await self.graph.read(
            "decide/settled_files",
            paths=list(paths),
            outcome=outcome,
            status=DecisionStatus.CLOSED.value,
        )
        return {str(r["path"]): str(r["decision_id"]) for r in rows}

    async def fold(self, decision_id: str, observation_ids: Sequence[str]) -> int:
        """Settle observations with ``decision_id`` (CONSIDERED now, processed); how many."""
        rows = await self.graph.write(
            "decide/fold_observations",
            decision_id=decision_id,
            observation_ids=list(observation_ids),
            at=utc_now(),
        )
        return int(rows[0]["folded"]) if rows else 0

    async def record_decision(
        self,
        decision: Decision,
        steps: Sequence[ReasoningStep],
        *,
        observation_ids: Sequence[str],
        recalled_ids: Sequence[str] = (),
        pattern_key: str | None = None,
        template: TemplateUse | None = None,
        episode_id: str | None = None,
        heuristic_ids: Sequence[str] = (),
        superseded_ids: Sequence[str] = (),
        frame: str | None = None,
        dry_run: Execution | None = None,
        settled: Settlement | None = None,
    ) -> str:
        """Write the decision and its explanation; mark its observations processed.

        ``frame`` names the frame the decision was made in; its usage count
        goes up in the same transaction. ``dry_run`` is a dry run's ended
        first attempt: written in the same statement (``EXECUTED_AS``), with
        the decision settled by it, done with the outcome properties
        ``settled``, as :meth:`start_execution` and :meth:`record_dry_run`
        would have left it (both moves checked, held once written).
        """
        if decision.status not in INITIAL:
            raise DecisionStatusError(f"a new decision cannot start {decision.status.value}")
        properties = to_properties(decision)
        if dry_run is not None:
            check_transition(check_transition(decision.status, S.ACTING), S.DONE)
            done = {
                "status": S.DONE.value,
                "executed": True,
                **(asdict(settled) if settled else {}),
            }
            properties.update(changes_as_properties(done))
        template_row = None
        if template is not None:
            template_row = {"id": new_id(), **asdict(template)}
        rows = await self.graph.write(
            "decide/record_decision",
            decision=properties,
            observation_ids=list(observation_ids),
            steps=[to_properties(s) for s in steps],
            recalled_ids=list(recalled_ids),
            pattern={"id": new_id(), "key": pattern_key} if pattern_key else None,
            template=template_row,
            episode_id=episode_id,
            heuristic_ids=list(heuristic_ids),
            superseded_ids=list(superseded_ids),
            superseded=S.SUPERSEDED.value,
            frame=frame,
            execution=to_properties(dry_run) if dry_run is not None else None,
        )
        if dry_run is not None:
            _advance(decision, S.ACTING)
            _advance(decision, S.DONE)
        return str(rows[0]["id"])

    async def start_execution(self, execution: Execution, decision: Decision | None = None) -> str:
        """Record that an action starts (``EXECUTED_AS`` from its decision, now acting).

        ``decision``, when the caller holds it, moves to acting here (checked),
        so a decision's status changes only in this store.
        """
        if decision is not None:
            _advance(decision, S.ACTING)
        rows = await self.graph.write(
            "decide/start_execution",
            execution=to_properties(execution),
            decision_id=execution.decision_id,
            retry_of=execution.retry_of,
            acting=S.ACTING.value,
        )
        return str(rows[0]["id"])

    async def record_dry_run(
        self, execution: Execution, decision: Decision, **changes: Unpack[DecisionChanges]
    ) -> str:
        """A dry run's ended attempt and its decision's settlement, in one write.

        The decision moves to acting and on to done (both checked), as
        :meth:`start_execution` and then :meth:`move` would take it; ``changes``
        are the outcome properties :meth:`move` would write.
        """
        # Both moves checked first, held only once written: a failed write leaves the decision
        # as it was, so the loop defers it (and retries it) instead of taking it for settled.
        check_transition(check_transition(decision.status, S.ACTING), S.DONE)
        rows = await self.graph.write(
            "decide/record_dry_run",
            execution=to_properties(execution),
            decision_id=execution.decision_id,
            retry_of=execution.retry_of,
            changes=changes_as_properties({"status": S.DONE.value, **changes}),
        )
        _advance(decision, S.ACTING)
        _advance(decision, S.DONE)
        return str(rows[0]["id"])

    async def finish_execution(self, execution_id: str, **result: Unpack[ExecutionEnd]) -> None:
        """Record how an execution ended (``ended_at`` now unless given)."""
        await self.graph.write(
            "decide/finish_execution",
            execution_id=execution_id,
            result=changes_as_properties({"ended_at": utc_now(), **result}),
        )

    async def close_fixed_escalations(
        self, template: str, before: datetime, paths: Sequence[str] | None, note: str
    ) -> int:
        """Resolve the open escalations of ``template``'s earlier decisions (on ``paths``, or
        any when None) that a passing run fixed, with ``note``; how many."""
        rows = await self.graph.write(
            "decide/close_fixed_escalations",
            template=template,
            before=before,
            paths=None if paths is None else list(paths),
            note=note,
            at=utc_now(),
        )
        return int(rows[0]["closed"]) if rows else 0

    async def interrupt_executions(self, decision_id: str, **result: Unpack[ExecutionEnd]) -> int:
        """End the decision's attempts that have not ended with ``result``; how many."""
        rows = await self.graph.write(
            "decide/interrupt_executions",
            decision_id=decision_id,
            result=changes_as_properties({"ended_at": utc_now(), **result}),
        )
        return int(rows[0]["interrupted"]) if rows else 0

    async def move(
        self, decision: Decision, to: DecisionStatus, **changes: Unpack[DecisionChanges]
    ) -> None:
        """Move ``decision`` to status ``to`` (checked), with its outcome or next look."""
        _advance(decision, to)
        await self._write(decision.id, {"status": to.value, **changes})

    async def close_turn(
        self, decision_id: str, to: DecisionStatus, **changes: Unpack[DecisionChanges]
    ) -> None:
        """Close a chat turn's deliberating decision (checked) with what came of the turn.

        The turn did something, so the decision is found by words from then on (it becomes
        ``Consequential``, as an action that ran does).
        """
        check_transition(DecisionStatus.DELIBERATING, to)
        await self._write(decision_id, {"status": to.value, **changes}, "chat/close_decision")

    async def settle(self, decision_id: str, **changes: Unpack[DecisionChanges]) -> None:
        """Update a decision's outcome or next look; its status moves only by :meth:`move`."""
        if "status" in changes:
            raise DecisionStatusError("a decision's status changes through move(), not settle()")
        await self._write(decision_id, dict(changes))

    async def _write(
        self, decision_id: str, changes: dict[str, Any], query: str = "decide/settle_decision"
    ) -> None:
        await self.graph.write(
            query, decision_id=decision_id, changes=changes_as_properties(changes)
        )

    async def record_escalation(
        self, escalation: Escalation, decision: Decision | None = None
    ) -> str:
        """Hand a decision to a person (its status becomes escalated).

        ``decision``, when the caller holds it, moves to escalated here (checked).
        """
        if decision is not None:
            _advance(decision, S.ESCALATED)
        rows = await self.graph.write(
            "decide/record_escalation",
            escalation=to_properties(escalation),
            decision_id=escalation.decision_id,
            escalated=S.ESCALATED.value,
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

    async def repeat_escalation(self, decision: Decision, reason: str) -> str | None:
        """Fold ``decision`` into the open escalation of the same template, path and reason
        (it REPEATS it; a person is not asked twice); the escalation's id, or None if none is
        open or the decision has no template or path."""
        if decision.template is None or decision.path is None:
            return None
        escalated = check_transition(decision.status, S.ESCALATED)  # raises before writing
        rows = await self.graph.write(
            "decide/repeat_escalation",
            decision_id=decision.id,
            template=decision.template,
            path=decision.path,
            reason=reason,
            at=utc_now(),
            escalated=S.ESCALATED.value,
        )
        if not rows:
            return None
        decision.status = escalated
        log.info(
            "decision %s repeats escalation %s (%s times now): %s",
            decision.id,
            rows[0]["id"],
            rows[0]["repeats"],
            reason[:160],
        )
        return str(rows[0]["id"])

    async def upsert_goals(self, goals: Sequence[GoalSettings]) -> None:
        """Make the configured goals ``Goal`` nodes (matched by description)."""
        rows = [
            {"id": new_id(), "description": g.description, "priority": g.priority, "at": utc_now()}
            for g in goals
        ]
        if rows:
            await self.graph.write("decide/upsert_goals", rows=rows)
