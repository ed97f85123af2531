"""record_decision CREATEs its links (no MERGE): an id named twice still gets one relationship."""

from __future__ import annotations

from collections import Counter

from graph.models import Decision, DecisionType, Observation, ObservationType
from graph.server.finder import Neo4jEndpoint
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory
from tests.support.graph_checks import open_checks


async def test_ids_named_twice_link_once(memory: Memory, neo4j_endpoint: Neo4jEndpoint) -> None:
    store = DecisionStore(memory)
    seen = Observation(agent_id=memory.agent_id, type=ObservationType.FILE_CREATED, path="a.md")
    await memory.record_observations([seen])
    past = Decision(agent_id=memory.agent_id, type=DecisionType.WAIT, confidence=0.4)
    await store.record_decision(past, [], observation_ids=[])
    decision = Decision(agent_id=memory.agent_id, type=DecisionType.WAIT, confidence=0.5)
    await store.record_decision(
        decision,
        [],
        observation_ids=[seen.id, seen.id],
        recalled_ids=[past.id, past.id],
        pattern_key="knowledge:file_created:wait:none",
    )
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        rows = await checks.memory.read("checks/outgoing", id=decision.id)
    links = Counter((r["type"], r["target"]) for r in rows)
    assert links[("CONSIDERED", seen.id)] == 1
    assert links[("RECALLED", past.id)] == 1
    assert sum(1 for t, _ in links if t == "MATCHED") == 1
    assert all(n == 1 for n in links.values())
