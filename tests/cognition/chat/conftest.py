"""Fixtures of the cognitive layer tests: a layer on a pre-seeded memory, and graph checks."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cognition.chat.layer import CognitiveLayer
from cognition.frames.engine import FrameEngine
from cognition.learn.learner import OutcomeLearner
from graph.models import Censor, Decision, DecisionType, Fact, Procedure
from graph.server.finder import Neo4jEndpoint
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory
from tests.support.cognitive_layer import IDENTITY
from tests.support.graph_checks import GraphChecks, open_checks


@pytest.fixture
async def layer(memory: Memory) -> CognitiveLayer:
    # Pre-seeded through the product's write paths, for a realistic context.
    episode, _ = await memory.episodes.start_episode("earlier-session")
    await memory.episodes.add_fact(
        Fact(agent_id=memory.agent_id, content="Redis runs on :6379"), episode_id=episode.id
    )
    await memory.episodes.add_procedure(
        Procedure(agent_id=memory.agent_id, name="deploy", domain="ops", core_patterns=["tag"]),
        episode_id=episode.id,
    )
    await memory.episodes.end_episode(episode.id, outcome="completed", summary="set up Redis")
    await memory.censors.create_censor(
        Censor(
            agent_id=memory.agent_id,
            trigger_pattern="Avoid force-pushing to main",
            reason="lost work",
        )
    )
    for confidence in (0.6, 0.9, 0.4):
        past = Decision(agent_id=memory.agent_id, type=DecisionType.ACT, confidence=confidence)
        await DecisionStore(memory).record_decision(past, [], observation_ids=[])
    return CognitiveLayer(
        memory, FrameEngine(memory), OutcomeLearner(memory), identity_prompt=IDENTITY
    )


@pytest.fixture
async def checks(neo4j_endpoint: Neo4jEndpoint, agent_id: str) -> AsyncIterator[GraphChecks]:
    async with open_checks(neo4j_endpoint, agent_id) as instance:
        yield instance
