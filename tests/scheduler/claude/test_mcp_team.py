"""The team server's gates: every agent on one connection, rebuilt together when it is new."""

from __future__ import annotations

from graph.settings import load_settings
from scheduler.claude.mcp_team import AgentGate, TeamGate
from tests.scheduler.claude.mcp_client import EMPTY


async def test_each_agent_sees_the_shared_connection_and_its_count(
    neo4j_in_environ: None, agent_id: str
) -> None:
    team = TeamGate(load_settings(EMPTY))
    alice, bob = AgentGate(team, agent_id), AgentGate(team, f"{agent_id}-bob")
    try:
        assert alice.connections == 0
        first = await alice.memory()
        assert first.agent_id == agent_id and (await bob.memory()).agent_id == f"{agent_id}-bob"
        assert first.driver is (await bob.memory()).driver and alice.connections == 1
        await alice.close()  # one agent's tool timing out leaves the others' connection be
        assert await alice.memory() is first
        await team.close()  # Neo4j went away: the next call connects again, for everyone
        again = await alice.memory()
        assert again is not first and alice.connections == bob.connections == 2
    finally:
        await team.close()
