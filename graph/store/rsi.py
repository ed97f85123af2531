"""Self-improvement's memory: the access layer for ``cypher/rsi/``.

Reflections, desires with their provenance, trajectories and cycles (seed 003
A2, E1-E5, C1, C2, I4): models go in, models come out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Unpack

from graph.models import Desire, DesireStatus, Reflection, RSICycle, Trajectory
from graph.store.agent_graph import AgentGraph
from graph.store.mapping import changes_as_properties, from_properties, to_properties
from graph.store.rows.rsi import DesireChanges

# The labels whose nodes reflection shows, and that a desire may be INFLUENCED_BY.
SOURCE_LABELS = ("Decision", "Execution", "Escalation", "Censor", "Lesson", "Pattern")


@dataclass(frozen=True)
class ExperienceItem:
    """One thing reflection is shown: a node's label, id, kind and facts."""

    label: str
    id: str
    kind: str
    at: str
    facts: dict[str, Any]


@dataclass(frozen=True)
class NewDesire:
    """A desire to write, with its reflection and the shown nodes it cites, by label."""

    desire: Desire
    sources: Mapping[str, Sequence[str]]


class RSIStore:
    """One agent's self-improvement records."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    @property
    def agent_id(self) -> str:
        """The agent whose records these are."""
        return self.graph.agent_id

    async def experience(self, per_kind: int) -> list[ExperienceItem]:
        """What happened since the last cycle, newest first (``rsi/experience``)."""
        rows = await self.graph.read("rsi/experience", per_kind=per_kind)
        return [
            ExperienceItem(
                label=str(r["label"]),
                id=str(r["id"]),
                kind=str(r["kind"]),
                at=str(r["at"]),
                facts={k: v for k, v in dict(r["facts"]).items() if v is not None},
            )
            for r in rows
        ]

    async def record_reflection(self, reflection: Reflection) -> str:
        """Write a reflection; return its id."""
        rows = await self.graph.write("rsi/record_reflection", reflection=to_properties(reflection))
        return str(rows[0]["id"])

    async def record_desires(self, desires: Sequence[NewDesire]) -> dict[str, int]:
        """Write desires with EXPRESSED and INFLUENCED_BY; return links made per desire id."""
        if not desires:
            return {}
        rows = [
            {
                "desire": to_properties(d.desire),
                "reflection_id": d.desire.reflection_id,
                "sources": {label: list(ids) for label, ids in d.sources.items()},
            }
            for d in desires
        ]
        written = await self.graph.write("rsi/record_desires", rows=rows)
        return {str(r["id"]): int(r["linked"]) for r in written}

    async def update_desire(self, desire_id: str, **changes: Unpack[DesireChanges]) -> bool:
        """Change some properties of a desire; False when it does not exist."""
        rows = await self.graph.write(
            "rsi/update_desire", desire_id=desire_id, changes=changes_as_properties(dict(changes))
        )
        return bool(rows)

    async def desire(self, desire_id: str) -> Desire | None:
        """One desire by id, or None."""
        rows = await self.graph.read("rsi/desire_by_id", desire_id=desire_id)
        return from_properties(Desire, rows[0]["desire"]) if rows else None

    async def desires_with_status(self, status: DesireStatus, limit: int = 50) -> list[Desire]:
        """Desires in one status, oldest first."""
        rows = await self.graph.read("rsi/desires_by_status", status=status.value, limit=limit)
        return [from_properties(Desire, r["desire"]) for r in rows]

    async def recent_descriptions(self, limit: int) -> list[str]:
        """The latest desires' descriptions, newest first."""
        rows = await self.graph.read("rsi/recent_desires", limit=limit)
        return [str(r["description"] or "") for r in rows]

    async def record_trajectory(self, trajectory: Trajectory) -> str:
        """Write a trajectory, PRACTICED_IN from its desire; return its id."""
        rows = await self.graph.write(
            "rsi/record_trajectory",
            trajectory=to_properties(trajectory),
            desire_id=trajectory.desire_id,
        )
        return str(rows[0]["id"])

    async def recent_trajectories(self, domain: str | None, limit: int) -> list[Trajectory]:
        """The latest trajectories, newest first, in one domain or all (``None``)."""
        rows = await self.graph.read("rsi/recent_trajectories", domain=domain, limit=limit)
        return [from_properties(Trajectory, r["trajectory"]) for r in rows]

    async def record_cycle(self, cycle: RSICycle, desire_ids: Sequence[str]) -> str:
        """Write a cycle's record, PRODUCED each of its desires; return its id."""
        rows = await self.graph.write(
            "rsi/record_cycle", cycle=to_properties(cycle), desire_ids=list(desire_ids)
        )
        return str(rows[0]["id"])
