"""The memory API that the rest of Nous calls: models in, models out.

One ``Memory`` per agent. It turns node models into query parameters and
records into models; the Cypher itself lives in ``cypher/`` and runs through
:class:`graph.store.driver.GraphDriver`. Queries without a domain method here are
reached by name through :meth:`Memory.read` and :meth:`Memory.write`, which
add the agent id to the parameters.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from graph.models import FileRecord, Observation, ObservationType
from graph.store.driver import GraphDriver, Row
from graph.store.mapping import from_properties

_FILE_NAMESPACE = uuid.UUID("6f2b1c1e-6a53-4c4e-9a4e-2f1f0d6b9a10")


class Memory:
    """One agent's view of the graph."""

    def __init__(self, driver: GraphDriver, agent_id: str) -> None:
        self.driver = driver
        self.agent_id = agent_id

    async def read(self, name: str, /, **params: Any) -> list[Row]:
        """Run a read query by name with this agent's id as ``$agent_id``."""
        return await self.driver.read(name, agent_id=self.agent_id, **params)

    async def write(self, name: str, /, **params: Any) -> list[Row]:
        """Run a write query by name with this agent's id as ``$agent_id``."""
        return await self.driver.write(name, agent_id=self.agent_id, **params)

    async def write_rows(
        self, name: str, rows: Sequence[Mapping[str, Any]], /, *, batch_size: int = 1000
    ) -> list[Row]:
        """Write rows through an ``UNWIND $rows`` query by name, chunk by chunk."""
        return await self.driver.write_rows(
            name, rows, batch_size=batch_size, agent_id=self.agent_id
        )

    async def record_observations(
        self, observations: Sequence[Observation], *, batch_size: int = 1000
    ) -> int:
        """Persist observations and their ``File`` nodes; return how many were new to the graph."""
        if not observations:
            return 0
        rows = [observation_row(o) for o in observations]
        result = await self.write_rows("observe/record_observations", rows, batch_size=batch_size)
        return sum(int(r["written"]) for r in result)

    async def file_records(self) -> dict[str, FileRecord]:
        """Every file this agent believes exists, by relative path."""
        rows = await self.read("observe/file_records")
        return {r["path"]: FileRecord.model_validate(r) for r in rows}

    async def touch_files(self, records: Iterable[FileRecord]) -> int:
        """Store a new size and mtime for files whose content did not change."""
        rows = [{"path": r.path, "size": r.size, "mtime": r.mtime} for r in records]
        if not rows:
            return 0
        result = await self.write_rows("observe/touch_files", rows)
        return sum(int(r["touched"]) for r in result)

    async def observation_counts(self) -> tuple[int, int]:
        """(total observations, unprocessed observations) for this agent."""
        rows = await self.read("observe/observation_counts")
        return int(rows[0]["total"]), int(rows[0]["unprocessed"])

    async def observations_for_path(self, path: str, *, limit: int = 50) -> list[Observation]:
        """The observations about one file, newest first."""
        rows = await self.read("observe/observations_for_path", path=path, limit=limit)
        return [from_properties(Observation, r, agent_id=self.agent_id) for r in rows]

    async def await_text_indexes(self) -> None:
        """Wait until full-text recall sees everything committed so far.

        The full-text indexes are eventually consistent (a write does not wait
        for Lucene); tests and tools that write text and search it at once
        call this in between.
        """
        await self.driver.read("admin/await_fulltext")

    async def forget(self, *, chunk: int = 10_000) -> int:
        """Delete every node of this agent (tests, and a person starting over)."""
        total = 0
        while True:
            rows = await self.write("admin/forget_agent", limit=chunk)
            deleted = int(rows[0]["deleted"]) if rows else 0
            total += deleted
            if deleted == 0:
                return total


def file_id(agent_id: str, path: str) -> str:
    """A stable id for a ``File`` node, so every writer MERGEs the same node."""
    return str(uuid.uuid5(_FILE_NAMESPACE, f"{agent_id}\0{path}"))


def path_pattern(path: str | None) -> str | None:
    """The folder and extension of a path, as recall groups files (``docs/*.md``)."""
    if not path:
        return None
    folder, _, name = path.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    suffix = f"*.{ext}" if dot and stem else "*"
    return f"{folder}/{suffix}" if folder else suffix


def observation_row(o: Observation) -> dict[str, Any]:
    """The query parameters of one observation (metadata as a JSON string)."""
    from_path = o.metadata.get("from_path") if o.type is ObservationType.FILE_MOVED else None
    return {
        "id": o.id,
        "agent_id": o.agent_id,
        "at": o.at,
        "type": o.type.value,
        "urgency": o.urgency.value,
        "category": o.category.value,
        "path": o.path,
        "path_pattern": path_pattern(o.path),
        "content_hash": o.content_hash,
        "size": o.size,
        "mtime": o.mtime,
        # The agent's own edits are processed from the start: they never start an action.
        "processed": o.processed or o.caused_by is not None,
        "metadata": json.dumps(o.metadata, sort_keys=True, default=str),
        "caused_by": o.caused_by,
        "from_path": from_path,
        "file_exists": o.type is not ObservationType.FILE_DELETED,
        "file_id": file_id(o.agent_id, o.path) if o.path else None,
        "from_file_id": file_id(o.agent_id, from_path) if from_path else None,
    }
