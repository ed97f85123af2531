"""The cognitive layer (seed 004's test_cognitive_layer, in full) against a real Neo4j."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import cast

import pytest
from pydantic import ValidationError

from cognition.chat.decision import chat_pattern_key
from cognition.chat.layer import CognitiveLayer, ContextBuilder
from cognition.chat.turns import ToolResult, TurnContext, TurnResult
from cognition.frames.engine import FrameEngine
from cognition.learn.learner import OutcomeLearner
from cognition.monitor import EpisodeOutcome
from graph.models import Censor, Decision, DecisionType, Fact, Procedure
from graph.models.frame import FrameSpec
from graph.server.finder import Neo4jEndpoint
from graph.store.decisions import DecisionStore
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from tests.support.graph_checks import GraphChecks, open_checks

IDENTITY = "You are Nous, a careful assistant."
PERMISSION = ToolResult(
    tool_name="Write", arguments={"path": "/etc/hosts"}, error="Permission denied"
)


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


# --- pre_turn ---------------------------------------------------------------------


async def test_pre_turn_selects_frame(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "should we use Redis?")
    assert isinstance(context, TurnContext)
    assert context.frame.frame_id == "decision" and context.frame.match_method == "pattern"


async def test_pre_turn_builds_context(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "build a REST API")
    prompt = context.system_prompt
    assert prompt.startswith(IDENTITY)
    assert "## Active censors\n- **WARN:** Avoid force-pushing to main — lost work" in prompt
    assert "## Frame: Task Execution" in prompt and "What does done look like?" in prompt
    assert "## Working memory\nCurrent task: build a REST API" in prompt
    assert context.active_censors == ["Avoid force-pushing to main"]
    assert context.context_token_estimate == -(-len(prompt) // 4)  # rounded up


async def test_pre_turn_starts_deliberation(layer: CognitiveLayer, checks: GraphChecks) -> None:
    context = await layer.pre_turn("s-1", "should we use Redis?")
    assert context.decision_id is not None and context.episode_id is not None
    node = await checks.node(context.decision_id)
    assert node is not None
    assert node["status"] == "deliberating" and node["description"] == "Plan: should we use Redis?"
    assert node["confidence"] == 0.5 and node["category"] == "architecture"
    assert node["stakes"] == "high" and node["tags"] == ["decision"] and node["session_id"] == "s-1"
    links = await checks.outgoing(context.decision_id)
    assert ("IN_EPISODE", "Episode", context.episode_id) in links
    assert {t for t, label, _ in links if label == "Pattern"} == {"MATCHED"}


async def test_pre_turn_no_deliberation_conversation(layer: CognitiveLayer) -> None:
    for text in ("hello there", "what is Redis?", "brainstorm names"):
        assert (await layer.pre_turn("s-1", text)).decision_id is None


async def test_what_people_ask_a_coding_agent_deliberates(layer: CognitiveLayer) -> None:
    # Imperatives outside the seed script's five task words: each opens a decision, so the
    # turn is learned from and shows in the audit trail.
    for text in ("Add logging to the importer", "Write a test for parse_date", "the tests fail"):
        context = await layer.pre_turn("s-1", text)
        assert context.frame.frame_id in {"task", "debug"}, text
        assert context.decision_id is not None, text


async def test_a_layer_that_does_not_decide_opens_no_decision(
    layer: CognitiveLayer, checks: GraphChecks
) -> None:
    frozen = CognitiveLayer(layer.memory, FrameEngine(layer.memory), decide=False)
    before = await checks.counts()
    context = await frozen.pre_turn("s-2", "build a REST API")
    assert context.frame.frame_id == "task" and context.decision_id is None
    await frozen.post_turn("s-2", TurnResult(response_text="Built it."), context)
    after = await checks.counts()
    for label in ("Decision", "Pattern", "Lesson"):
        assert after.get(label, 0) == before.get(label, 0), label


async def test_pre_turn_starts_episode(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "hello")
    episode = await layer.memory.episodes.open_episode("s-1")
    assert episode is not None and episode.id == context.episode_id


async def test_pre_turn_reuses_episode(layer: CognitiveLayer) -> None:
    first = await layer.pre_turn("s-1", "hello")
    second = await layer.pre_turn("s-1", "build it")
    other = await layer.pre_turn("s-2", "hello")
    assert first.episode_id == second.episode_id != other.episode_id


async def test_pre_turn_updates_working_memory(layer: CognitiveLayer) -> None:
    await layer.pre_turn("s-1", "fix the login bug")
    memory = await layer.memory.episodes.working_memory("s-1")
    assert memory is not None
    assert (memory.current_task, memory.current_frame) == ("fix the login bug", "debug")


# --- post_turn -----------------------------------------------------------------------


async def test_post_turn_assesses(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "hello")
    assessment = await layer.post_turn("s-1", TurnResult(response_text="Hi!"), context)
    assert assessment.surprise_level == 0.0 and assessment.outcome is EpisodeOutcome.SUCCESS
    failed = await layer.post_turn("s-1", TurnResult(response_text="", error="crashed"), context)
    assert failed.surprise_level == 0.9 and failed.outcome is EpisodeOutcome.FAILURE


async def test_post_turn_finalizes_deliberation(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "should we use Redis?")
    assert context.decision_id is not None
    await layer.post_turn("s-1", TurnResult(response_text="Yes: it fits the cache."), context)
    decision = await layer.memory.learning.decision(context.decision_id)
    assert decision is not None
    assert (decision.status, decision.confidence) == ("done", 0.8)
    assert decision.outcome == "success" and decision.outcome_success is True


@pytest.mark.parametrize(
    ("result", "confidence", "status"),
    [
        (TurnResult(response_text="done", tool_results=[PERMISSION]), 0.5, "done"),
        (TurnResult(response_text="", error="model crashed"), 0.3, "failed"),
    ],
)
async def test_post_turn_final_confidence_follows_errors(
    layer: CognitiveLayer, checks: GraphChecks, result: TurnResult, confidence: float, status: str
) -> None:
    context = await layer.pre_turn("s-1", "build a REST API")
    assert context.decision_id is not None
    await layer.post_turn("s-1", result, context)
    node = await checks.node(context.decision_id)
    assert node is not None and (node["confidence"], node["status"]) == (confidence, status)
    # Learned with the confidence the turn was planned with, before finalizing.
    assert (node["calibration_confidence"], node["calibration_bucket"]) == (0.5, 5)


async def test_post_turn_no_finalize_without_decision(
    layer: CognitiveLayer, checks: GraphChecks
) -> None:
    before = (await checks.counts())["Decision"]
    context = await layer.pre_turn("s-1", "hello")
    await layer.post_turn("s-1", TurnResult(response_text="Hi"), context)
    assert (await checks.counts())["Decision"] == before
    assert await layer.memory.events.events("outcome_learned") == []


async def test_post_turn_creates_censor_on_failure(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "build a REST API")
    result = TurnResult(response_text="I wrote the config.", tool_results=[PERMISSION])
    assessment = await layer.post_turn("s-1", result, context)
    assert assessment.surprise_level == 0.3
    censor = await layer.memory.censors.censor_by_trigger(assessment.censor_candidates[0])
    assert censor is not None and censor.severity == "warn"


async def test_post_turn_emits_event(layer: CognitiveLayer) -> None:
    context = await layer.pre_turn("s-1", "should we use Redis?")
    await layer.post_turn("s-1", TurnResult(response_text="Yes."), context)
    [event] = await layer.memory.events.events("turn_completed")
    assert event.data == {
        "frame": "decision",
        "surprise_level": 0.0,
        "decision_id": context.decision_id,
        "has_errors": False,
        "outcome": "success",
        "censors": [],
    }
    assert len(await layer.memory.events.events("turn_started")) == 1


async def test_post_turn_notes_the_turn_in_the_episode(layer: CognitiveLayer) -> None:
    # Seed 004's monitor.learn episode outcomes, kept per turn until the session ends.
    context = await layer.pre_turn("s-1", "hello")
    await layer.post_turn("s-1", TurnResult(response_text="Hi there"), context)
    episode = await layer.memory.episodes.episode(context.episode_id or "")
    assert episode is not None and episode.summary == "conversation: Hi there"
    await layer.post_turn("s-1", TurnResult(response_text="", error="boom"), context)
    result = TurnResult(response_text="ok", tool_results=[PERMISSION])
    assessment = await layer.post_turn("s-1", result, context)
    ended = await layer.end_session("s-1")
    assert ended is not None and ended.lessons == assessment.censor_candidates


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


async def test_pre_turn_counts_the_frame_it_chose(layer: CognitiveLayer) -> None:
    first = await layer.pre_turn("s-1", "should we use Redis?")
    second = await layer.pre_turn("s-1", "should we use Postgres?")
    assert (first.frame.usage_count, second.frame.usage_count) == (1, 2)
    counts = {f.frame_id: f.usage_count for f in await layer.frames.list_frames()}
    assert counts["decision"] == 2
