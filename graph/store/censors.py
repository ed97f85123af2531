"""Censors, written and read: the access layer for their part of ``cypher/learn/``.

A censor is learned from a failed action, filed under a trigger (template and
path pattern); it warns at its first firing and blocks from the second.
Lifting one is a person's change (:mod:`graph.store.admin`); the hook gate's
lookup by a tool call is in :mod:`graph.store.turns`.
"""

from __future__ import annotations

from graph.models import Censor, utc_now
from graph.models.paths import path_pattern
from graph.store.lean_memory import LeanMemory
from graph.store.mapping import from_properties, from_row, to_properties

# A censor is created at its first firing (fire_count 1, severity warn); the
# second time the same thing goes wrong it blocks.
BLOCK_AFTER_FIRES = 2


def censor_trigger(template: str, path: str | None) -> str:
    """The trigger a failed action's censor is filed under: template and path pattern.

    Planning looks a censor up by it before acting; learning files one under it.
    """
    return f"{template} on {path_pattern(path) or 'no path'}"


class CensorStore:
    """One agent's censors: created, fired, looked up by trigger, listed."""

    def __init__(self, graph: LeanMemory) -> None:
        self.graph = graph
        self.writes = 0
        """Censors this store created or fired so far: a list read before it is still whole
        if this has not moved (the daemon's censors are written through its one store)."""

    @property
    def agent_id(self) -> str:
        """The agent this store reads and writes for."""
        return self.graph.agent_id

    async def create_censor(self, censor: Censor, *, learned_from: str | None = None) -> str:
        """Write a censor, ``LEARNED_FROM`` the Execution or Episode ``learned_from`` names."""
        try:
            rows = await self.graph.write(
                "learn/create_censor", censor=to_properties(censor), source_id=learned_from
            )
        finally:
            # Counted once the write has ended (a failed one may still have committed): a
            # list read while it was in flight then differs from the count at the check.
            self.writes += 1
        return str(rows[0]["id"])

    async def fire_censor(self, censor_id: str, *, may_block: bool = True) -> Censor | None:
        """Count one firing; warn becomes block at ``BLOCK_AFTER_FIRES`` (unless ``may_block``
        is false: the firing is counted, the severity kept). None if no such censor."""
        try:
            rows = await self.graph.write(
                "learn/fire_censor",
                censor_id=censor_id,
                # A count no censor reaches: fired, never blocked by this firing.
                block_after=BLOCK_AFTER_FIRES if may_block else 2**62,
                now=utc_now(),
            )
        finally:
            self.writes += 1  # after the write, as in create_censor
        return from_properties(Censor, rows[0]["censor"]) if rows else None

    async def censor_by_trigger(self, trigger: str) -> Censor | None:
        """The active censor with exactly this trigger, or None."""
        rows = await self.graph.read("learn/censor_by_trigger", trigger=trigger)
        return from_properties(Censor, rows[0]["censor"]) if rows else None

    async def censor_by_call(self, call_key: str) -> Censor | None:
        """The active censor learned from the tool call with this key, or None."""
        rows = await self.graph.read("learn/censor_by_call", call_key=call_key)
        return from_properties(Censor, rows[0]["censor"]) if rows else None

    async def active_censors(self, limit: int = 20) -> list[Censor]:
        """Active censors, block first, then the most fired."""
        found = await self.graph.session_start.active_censors(limit)
        return [from_row(Censor, row) for row in found]

    async def active_censor_triggers(self, limit: int = 20) -> list[str]:
        """The triggers of :meth:`active_censors`, in its order: no models made on the way.

        For a turn's context, built at every prompt, which names the censors only.
        """
        return [c.trigger_pattern for c in await self.graph.session_start.active_censors(limit)]
