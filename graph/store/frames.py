"""Frames as ``Frame`` nodes: seeded once per agent, read with their use counts, their use counted.

A person may tune an agent's frames in Neo4j Browser; a hand-edited frame
that no longer validates is skipped with a warning, never fatal.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import ValidationError

from graph.models import FrameSpec, new_id, utc_now
from graph.store.agent_graph import AgentGraph
from graph.store.mapping import from_properties, to_properties

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StoredFrame:
    """A frame as the graph holds it: its data, its node id and how often it was chosen."""

    spec: FrameSpec
    node_id: str | None
    usage_count: int


class FrameStore:
    """One agent's ``Frame`` nodes."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def seed(self, specs: Sequence[FrameSpec]) -> int:
        """Make ``specs`` ``Frame`` nodes; frames that exist are left alone. Returns how many
        were created."""
        rows = [{**to_properties(s), "id": new_id(), "at": utc_now()} for s in specs]
        written = await self.graph.write("learn/seed_frames", rows=rows)
        return sum(1 for r in written if r["created"])

    async def frames(self) -> list[StoredFrame]:
        """Every frame of the agent, highest priority first; broken ones skipped."""
        out = []
        for row in await self.graph.read("learn/frames"):
            properties = row["frame"]
            try:
                title = properties.get("title") or properties.get("name")
                spec = from_properties(FrameSpec, {**properties, "title": title})
            except (ValidationError, ValueError) as exc:
                # A hand-edited frame that no longer validates must not stop the loop.
                log.warning("frame %r skipped: %s", properties.get("name"), exc)
                continue
            uses = int(properties.get("usage_count") or 0)
            out.append(StoredFrame(spec, properties.get("id"), uses))
        return out

    async def count_use(self, name: str, now: datetime | None = None) -> int | None:
        """Count one use of the frame ``name``; its usage count after, or None if it has none."""
        rows = await self.graph.write("learn/frame_used", name=name, now=now or utc_now())
        return int(rows[0]["usage_count"]) if rows else None
