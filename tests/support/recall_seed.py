"""Filling an agent's memory for recall tests.

Decisions go through the product's own write path (``DecisionStore``). Nodes
whose write paths are not ours to use here (censors, facts, procedures,
episodes, lessons, heuristics, working memory, goals, pattern statistics) are
created by the test-only Cypher files under ``tests/support/cypher/seed/``,
loaded by name like every other statement.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from graph.models import Decision, DecisionStatus, DecisionType, new_id, utc_now
from graph.models.paths import path_pattern
from graph.server.finder import Neo4jEndpoint
from graph.store.decisions import INITIAL, TRANSITIONS, DecisionStore
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.queries import QueryLibrary

SUPPORT_CYPHER = Path(__file__).resolve().parent / "cypher"
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class Seeder:
    """Writes fixtures for one agent."""

    def __init__(self, memory: Memory, fixtures: Memory) -> None:
        self.memory = memory
        self.decisions = DecisionStore(memory)
        self.fixtures = fixtures

    async def decision(
        self,
        path: str | None,
        *,
        category: str = "knowledge",
        observation_type: str = "file_modified",
        type: DecisionType = DecisionType.ACT,
        template: str | None = "analyze_knowledge",
        confidence: float = 0.8,
        outcome_success: bool | None = None,
        outcome: str | None = None,
        minutes: int = 0,
        status: DecisionStatus = DecisionStatus.DECIDED,
        reasoning: str = "",
    ) -> str:
        """Record a decision ``minutes`` after T0 through ``DecisionStore.record_decision``.

        With ``outcome_success`` given, an ACT ran for real: it is labelled
        Consequential, as ``start_execution`` would have left it.
        """
        decision = Decision(
            agent_id=self.memory.agent_id,
            at=T0 + timedelta(minutes=minutes),
            type=type,
            confidence=confidence,
            template=template,
            category=category,
            observation_type=observation_type,
            path=path,
            path_pattern=path_pattern(path),
            executed=outcome_success is not None,
            outcome_success=outcome_success,
            outcome=outcome,
            status=status,
            reasoning=reasoning,
        )
        if status not in INITIAL:
            # Written the way the loop gets there: first decided or waiting, then moved.
            on_the_way = next(s for s in INITIAL if status in TRANSITIONS[s])
            decision.status = on_the_way
        decision_id = await self.decisions.record_decision(decision, [], observation_ids=[])
        if decision.executed and type is DecisionType.ACT:  # as start_execution leaves it
            await self.fixtures.write("seed/ran", rows=[{"decision_id": decision_id}])
        if decision.status != status:
            await self.decisions.move(decision, status)
        await self.memory.await_text_indexes()  # full-text is eventually consistent
        return decision_id

    async def nodes(self, kind: str, *rows: dict[str, Any]) -> list[str]:
        """Create fixture nodes of one kind (``"facts"``, ``"censors"`` …); id and at default."""
        full = [{"id": new_id(), "at": utc_now(), **row} for row in rows]
        result = await self.fixtures.write(f"seed/{kind}", rows=full)
        await self.memory.await_text_indexes()  # full-text is eventually consistent
        return [str(r["id"]) for r in result]


def support_driver(endpoint: Neo4jEndpoint, *, own_connections: int = 4) -> GraphDriver:
    """A new (not started) driver whose queries are the test-only ones under ``SUPPORT_CYPHER``
    (``own_connections=0``: every statement through the official driver)."""
    return GraphDriver(
        endpoint.uri,
        endpoint.user,
        endpoint.password,
        database=endpoint.database,
        queries=QueryLibrary(root=SUPPORT_CYPHER),
        own_connections=own_connections,
    )


@asynccontextmanager
async def seeding(endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    """A seeder for ``memory``'s agent; its fixture driver is closed after."""
    driver = support_driver(endpoint)
    await driver.start()
    try:
        yield Seeder(memory, Memory(driver, memory.agent_id))
    finally:
        await driver.close()
