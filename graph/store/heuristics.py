"""Heuristics written and read: the access layer for ``cypher/rsi/`` (crystallize, trial, prune).

Crystallization reads the successful trajectories no heuristic was distilled
from yet and writes a new ``Heuristic`` as a candidate (or reinforces one it
repeats); a trial records a ``HeuristicTrial`` ``TRIED_IN`` from its
candidate and moves it to active or rejected; pruning reads the active set
and retires some of it, never deleting a node; the report reads figures per
time window. Credit by outcome is :meth:`LearningStore.credit_heuristics`,
since it happens when an outcome is learned (a decision's or a practice
trajectory's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from graph.models import Heuristic, HeuristicStatus, HeuristicTrial, Trajectory, new_id, utc_now
from graph.store.lean_memory import LeanMemory
from graph.store.mapping import from_properties, from_row, to_properties
from graph.store.rows.rsi import (
    CycleMark,
    HeuristicSummary,
    HeuristicWithTrials,
    ReportWindowRow,
)

# Crystallization samples at most ten trajectories; more than this is never needed at once.
MAX_UNDISTILLED = 1000


@dataclass(frozen=True)
class PruneOrder:
    """One heuristic to retire, and why (``unused``, ``harmful`` or ``over_cap``)."""

    heuristic_id: str
    reason: str


class HeuristicStore:
    """The heuristics and trajectories of one agent, as crystallization and pruning need them."""

    def __init__(self, graph: LeanMemory) -> None:
        self.graph = graph

    @property
    def agent_id(self) -> str:
        """The agent whose heuristics these are."""
        return self.graph.agent_id

    async def crystallizable_domains(self, min_count: int, domain: str | None = None) -> list[str]:
        """Domains with at least ``min_count`` successful, undistilled trajectories."""
        rows = await self.graph.read(
            "rsi/crystallizable_domains", domain=domain, min_count=int(min_count)
        )
        return [str(r["domain"]) for r in rows]

    async def undistilled_trajectories(
        self, domain: str, limit: int = MAX_UNDISTILLED
    ) -> list[Trajectory]:
        """The domain's successful trajectories no heuristic came from yet, oldest first."""
        rows = await self.graph.read("rsi/undistilled_trajectories", domain=domain, limit=limit)
        return [from_properties(Trajectory, r["trajectory"], agent_id=self.agent_id) for r in rows]

    async def active(self, domain: str | None = None) -> list[Heuristic]:
        """The active heuristics (of one domain, or all), oldest first: what prompts carry."""
        return await self.with_status(HeuristicStatus.ACTIVE, domain)

    async def with_status(
        self, status: HeuristicStatus, domain: str | None = None
    ) -> list[Heuristic]:
        """The heuristics in ``status`` (of one domain, or all), oldest first."""
        found = await self.graph.session_start.heuristics(status.value, domain)
        return [from_row(Heuristic, row, agent_id=self.agent_id) for row in found]

    async def with_trials(self) -> list[HeuristicWithTrials]:
        """Every heuristic, oldest first, each with its trials, oldest first."""
        rows = await self.graph.read("rsi/heuristics_with_trials")
        return [
            HeuristicWithTrials(
                from_properties(Heuristic, r["heuristic"], agent_id=self.agent_id),
                tuple(
                    from_properties(HeuristicTrial, t, agent_id=self.agent_id) for t in r["trials"]
                ),
            )
            for r in rows
        ]

    async def record_trial(
        self,
        trial: HeuristicTrial,
        status: HeuristicStatus | None,
        summary: str,
        *,
        cycle_id: str | None = None,
    ) -> HeuristicStatus | None:
        """Write a trial ``TRIED_IN`` from its heuristic and move a candidate to ``status``.

        Returns the heuristic's status afterwards, or None when it does not exist.
        """
        rows = await self.graph.write(
            "rsi/record_trial",
            heuristic_id=trial.heuristic_id,
            trial=to_properties(trial),
            status=status.value if status is not None else None,
            summary=summary,
            cycle_id=cycle_id,
        )
        return HeuristicStatus(rows[0]["status"]) if rows else None

    async def create(
        self, heuristic: Heuristic, trajectory_ids: Sequence[str], *, cycle_id: str | None = None
    ) -> int:
        """Write a new heuristic ``DISTILLED_FROM`` its trajectories; return how many it links."""
        rows = await self.graph.write(
            "rsi/create_heuristic",
            heuristic=to_properties(heuristic),
            trajectory_ids=list(trajectory_ids),
            cycle_id=cycle_id,
        )
        return int(rows[0]["distilled_from"])

    async def reinforce(self, heuristic_id: str, trajectory_ids: Sequence[str]) -> int | None:
        """One more confirmation of an active heuristic; its confirmations, or None if gone."""
        rows = await self.graph.write(
            "rsi/reinforce_heuristic",
            heuristic_id=heuristic_id,
            trajectory_ids=list(trajectory_ids),
            now=utc_now(),
        )
        return int(rows[0]["confirmations"]) if rows else None

    async def prune(
        self,
        orders: Sequence[PruneOrder],
        *,
        run_id: str | None = None,
        now: datetime | None = None,
    ) -> list[str]:
        """Retire heuristics, ``PRUNED_IN`` the cycle ``run_id`` (or a new prune job run).

        Returns the ids retired now; one already pruned is not counted again.
        """
        if not orders:
            return []
        at = now if now is not None else utc_now()
        run = {"id": run_id or new_id(), "agent_id": self.agent_id, "at": at, "kind": "prune"}
        rows = await self.graph.write(
            "rsi/prune_heuristics",
            run=run,
            now=at,
            rows=[{"id": o.heuristic_id, "reason": o.reason} for o in orders],
        )
        return [str(r["id"]) for r in rows]

    async def report_window(
        self, since: datetime | None = None, until: datetime | None = None
    ) -> ReportWindowRow:
        """The figures of one window (``rsi/report_window``)."""
        rows = await self.graph.read(
            "rsi/report_window", since=_offset_utc(since), until=_offset_utc(until)
        )
        return ReportWindowRow.from_record(rows[0])

    async def recent_cycles(self, limit: int) -> list[CycleMark]:
        """The latest RSI cycles (id and start), newest first."""
        rows = await self.graph.read("rsi/report_cycles", limit=limit)
        return [CycleMark(str(r["cycle"].get("id", "?")), r["cycle"]["at"]) for r in rows]

    async def all_heuristics(self) -> list[HeuristicSummary]:
        """Every heuristic with its usage and credit, active first."""
        rows = await self.graph.read("rsi/report_heuristics")
        return [HeuristicSummary.from_record(r["heuristic"]) for r in rows]


def _offset_utc(moment: datetime | None) -> datetime | None:
    """``moment`` in UTC as an offset, not a named zone.

    A time read back from Neo4j carries the zone *name* "UTC"; sent as a
    parameter it becomes ``datetime(...[UTC])``, which Cypher does not order
    against the ``+00:00`` times Nous stores (``=`` and ``>=`` are false for
    the same instant), so window bounds are converted first.
    """
    return moment.astimezone(UTC) if moment is not None else None
