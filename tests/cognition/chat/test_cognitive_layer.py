"""The cognitive layer's pre_turn and post_turn (seed 004's test_cognitive_layer) on Neo4j."""

from __future__ import annotations

import pytest

from cognition.chat.layer import CognitiveLayer
from cognition.chat.turns import TurnContext, TurnResult
from cognition.frames.engine import FrameEngine
from cognition.monitor import EpisodeOutcome
from tests.support.cognitive_layer import IDENTITY, PERMISSION
from tests.support.graph_checks import GraphChecks

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


async def test_pre_turn_counts_the_frame_it_chose(layer: CognitiveLayer) -> None:
    first = await layer.pre_turn("s-1", "should we use Redis?")
    second = await layer.pre_turn("s-1", "should we use Postgres?")
    assert (first.frame.usage_count, second.frame.usage_count) == (1, 2)
    counts = {f.frame_id: f.usage_count for f in await layer.frames.list_frames()}
    assert counts["decision"] == 2


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
