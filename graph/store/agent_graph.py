"""One agent's queries: the driver with this agent's id added to every statement.

The low part of the memory that every store needs and nothing else: a store
takes an :class:`AgentGraph`, and :class:`graph.store.memory.Memory` (which is
one) builds the stores. Stores never import ``memory``, so the façade can
import them all without an import ring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from graph.store.driver import GraphDriver, Row


class AgentGraph:
    """The graph as one agent reads and writes it: queries by name, ``$agent_id`` added."""

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
        self,
        name: str,
        rows: Sequence[Any],
        /,
        *,
        batch_size: int = 1000,
        convert: Callable[[Any], Mapping[str, Any]] | None = None,
        on_conflict: str | None = None,
    ) -> list[Row]:
        """Write rows through an ``UNWIND $rows`` query by name, chunk by chunk (``convert``
        makes each row a parameter map when its chunk is sent; ``on_conflict`` writes a chunk
        that broke a uniqueness constraint again: see ``GraphDriver.write_rows``)."""
        return await self.driver.write_rows(
            name,
            rows,
            batch_size=batch_size,
            convert=convert,
            on_conflict=on_conflict,
            agent_id=self.agent_id,
        )

    async def await_text_indexes(self) -> None:
        """Wait until full-text recall sees everything committed so far.

        The full-text indexes are eventually consistent (a write does not wait
        for Lucene); tests and tools that write text and search it at once
        call this in between.
        """
        await self.driver.read("admin/await_fulltext")
