"""The cognitive layer over a session: its end, the full loop, restarts, plug-ins, failures."""

from __future__ import annotations

import logging
from typing import cast

import pytest
from pydantic import ValidationError

from cognition.chat.decision import chat_pattern_key
from cognition.chat.layer import CognitiveLayer, ContextBuilder
from cognition.chat.turns import TurnResult
from cognition.frames.engine import FrameEngine
from graph.models.frame import FrameSpec
from graph.server.finder import Neo4jEndpoint
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from tests.support.cognitive_layer import IDENTITY, PERMISSION
from tests.support.graph_checks import GraphChecks

# --- end_session ----------------------------------------------------------------------


async def test_end_session_closes_episode(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "hello")
    ended = await layer.end_session("s-1")
    assert ended is not None and ended.id == context.episode_id
    assert ended.outcome == "completed" and ended.ended_at is not None
    assert await layer.memory.episodes.open_episode("s-1") is None


async def test_end_session_emits_event(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "hello")
    await layer.end_session("s-1")
    [event] = await layer.memory.events.events("session_ended")
    assert event.data == {"episode_id": context.episode_id, "outcome": "completed"}


async def test_end_session_idempotent(layer: CognitiveLayer) -> None:
    await layer.pre_turn("s-1", "hello")
    assert await layer.end_session("s-1") is not None
    assert await layer.end_session("s-1") is None
    assert await layer.end_session("never-started") is None
    assert len(await layer.memory.events.events("session_ended")) == 1


# --- full loop ----------------------------------------------------------------------


async def test_full_loop_decision(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "should we use Redis or Postgres?")
    assert context.frame.frame_id == "decision" and context.decision_id is not None
    assessment = await layer.post_turn(
        "s-1", TurnResult(response_text="Redis, for the cache."), context
    )
    assert assessment.surprise_level == 0.0
    ended = await layer.end_session("s-1")
    assert ended is not None and ended.outcome == "completed"
    pattern = await layer.memory.learning.pattern(chat_pattern_key(context.frame.spec()))
    assert pattern is not None and (pattern.total, pattern.successes) == (1, 1)
    assert [e.type for e in await layer.memory.events.events("session_ended")] == ["session_ended"]


async def test_full_loop_with_error(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "create the hosts entry")
    assert context.frame.frame_id == "task" and context.decision_id is not None
    result = TurnResult(response_text="I could not write it.", tool_results=[PERMISSION])
    assessment = await layer.post_turn("s-1", result, context)
    [trigger] = assessment.censor_candidates
    censor = await layer.memory.censors.censor_by_trigger(trigger)
    assert censor is not None and censor.severity == "warn"
    [lesson] = await layer.memory.learning.lessons_for(context.decision_id)
    assert lesson.type == "permission_failure"
    # The next turn sees the censor; the same error again makes it block.
    again = await layer.pre_turn("s-1", "create the hosts entry again")
    assert trigger in again.active_censors
    await layer.post_turn("s-1", result, again)
    blocked = await layer.memory.censors.censor_by_trigger(trigger)
    assert blocked is not None and blocked.id == censor.id and blocked.severity == "block"
    assert f"- **BLOCK:** {trigger}" in (await layer.pre_turn("s-1", "hi")).system_prompt
    await layer.end_session("s-1")


async def test_full_loop_conversation(layer: CognitiveLayer, checks: GraphChecks) -> None:
    before = await checks.counts()
    context = await layer.pre_turn("s-1", "hey how are you")
    assert context.frame.frame_id == "conversation" and context.decision_id is None
    assessment = await layer.post_turn("s-1", TurnResult(response_text="Fine, thanks!"), context)
    assert assessment.censor_candidates == []
    await layer.end_session("s-1")
    after = await checks.counts()
    assert after["Decision"] == before["Decision"] and after["Censor"] == before["Censor"]


# --- restarts, plug-ins and error handling --------------------------------------------


async def test_a_restarted_layer_continues_the_session(
    memory: Memory, layer: CognitiveLayer
) -> None:
    first = await layer.pre_turn("s-1", "hello")
    restarted = CognitiveLayer(memory, FrameEngine(memory))
    second = await restarted.pre_turn("s-1", "hello again")
    assert second.episode_id == first.episode_id
    assert (await restarted.end_session("s-1")) is not None


async def test_a_plugged_in_context_builder_is_used(memory: Memory) -> None:
    seen: list[tuple[str, str, str]] = []

    async def build(user_input: str, frame: FrameSpec, session_id: str) -> str:
        seen.append((user_input, frame.name, session_id))
        return f"context for {frame.title}"

    layer = CognitiveLayer(memory, FrameEngine(memory), context_builder=build)
    context = await layer.pre_turn("s-1", "why is it slow?")
    assert seen == [("why is it slow?", "question", "s-1")]
    assert context.system_prompt == "context for Question Answering"


async def test_a_failing_context_builder_falls_back(
    memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    def build(user_input: str, frame: FrameSpec, session_id: str) -> str:
        raise RuntimeError("recall is down")

    # A plain function that raises before there is anything to await.
    builder = cast(ContextBuilder, build)
    layer = CognitiveLayer(
        memory, FrameEngine(memory), context_builder=builder, identity_prompt=IDENTITY
    )
    with caplog.at_level(logging.WARNING, logger="cognition.chat.layer"):
        context = await layer.pre_turn("s-1", "build it")
    assert (
        context.system_prompt.startswith(IDENTITY)
        and "## Frame: Task Execution" in context.system_prompt
    )
    assert "context build failed" in caplog.text


async def test_the_turn_survives_a_memory_that_is_down(
    neo4j_endpoint: Neo4jEndpoint, agent_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A driver that was never started fails every query, like a Neo4j gone away.
    down = Memory(
        GraphDriver(neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password), agent_id
    )
    layer = CognitiveLayer(down, FrameEngine(down), identity_prompt=IDENTITY)
    with caplog.at_level(logging.WARNING):
        context = await layer.pre_turn("s-1", "should we use Redis?")
        assert context.frame.frame_id == "conversation" and context.frame.match_method == "default"
        assert context.decision_id is None and context.episode_id is None
        assert context.system_prompt.startswith(IDENTITY)
        result = TurnResult(response_text="ok", tool_results=[PERMISSION])
        assessment = await layer.post_turn("s-1", result, context)
        assert assessment.surprise_level == 0.3
        assert await layer.end_session("s-1") is None
    assert "frame selection failed" in caplog.text and "censor filing failed" in caplog.text


async def test_a_step_that_fails_leaves_the_others_their_results(
    memory: Memory, layer: CognitiveLayer, caplog: pytest.LogCaptureFixture
) -> None:
    # Hand-edited working memory that no longer validates: its update fails for real, while
    # the frame, episode, decision, censors and a builder that does not read it run beside.
    hostile = cast(list[str], [1, 2])
    with pytest.raises(ValidationError):  # written, then refused on the way back
        await layer.memory.episodes.update_working_memory(
            "s-1", current_task="x", open_threads=hostile
        )

    async def build(user_input: str, frame: FrameSpec, session_id: str) -> str:
        return f"recalled for {frame.name}"

    setattr(build, "reads_working_memory", False)  # noqa: B010  # what a builder declares
    layer.context_builder = build
    with caplog.at_level(logging.WARNING, logger="cognition.chat.layer"):
        context = await layer.pre_turn("s-1", "build a REST API")
    assert "working memory update failed" in caplog.text
    assert context.system_prompt == "recalled for task"
    assert (context.frame.frame_id, context.frame.usage_count) == ("task", 1)
    assert context.decision_id is not None and context.episode_id is not None
    assert context.active_censors == ["Avoid force-pushing to main"]
    started = await layer.memory.events.events("turn_started")
    assert [e.data["decision_id"] for e in started] == [context.decision_id]
