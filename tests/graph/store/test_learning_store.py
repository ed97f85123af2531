"""The learning access layer against a real Neo4j: patterns, outcomes, lessons, calibration,
censors, episodes, working memory, facts, procedures and events."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from graph.models import (
    ActionTarget,
    Censor,
    Decision,
    DecisionType,
    Execution,
    Fact,
    Lesson,
    Procedure,
    utc_now,
)
from graph.server.finder import Neo4jEndpoint
from graph.store.censors import BLOCK_AFTER_FIRES
from graph.store.decisions import DecisionStore
from graph.store.driver import GraphDriver
from graph.store.learning import calibration_bucket
from graph.store.memory import Memory
from tests.support.graph_checks import GraphChecks, open_checks


@pytest.fixture
def store(memory: Memory) -> Memory:
    return memory


@pytest.fixture
async def checks(neo4j_endpoint: Neo4jEndpoint, agent_id: str) -> AsyncIterator[GraphChecks]:
    async with open_checks(neo4j_endpoint, agent_id) as instance:
        yield instance


async def _decision(
    memory: Memory, confidence: float = 0.7, pattern_key: str | None = None
) -> Decision:
    decision = Decision(
        agent_id=memory.agent_id,
        type=DecisionType.ACT,
        confidence=confidence,
        pattern_key=pattern_key,
    )
    await DecisionStore(memory).record_decision(
        decision, [], observation_ids=[], pattern_key=pattern_key
    )
    return decision


async def _execution(memory: Memory, decision: Decision) -> str:
    execution = Execution(
        agent_id=memory.agent_id, decision_id=decision.id, target=ActionTarget.DRY_RUN
    )
    return await DecisionStore(memory).start_execution(execution)


# --- patterns ------------------------------------------------------------------


async def test_update_pattern_follows_seed_000s_formula(store: Memory) -> None:
    first = await store.learning.update_pattern(
        "index:file_created:act:x", success=True, confidence=0.8
    )
    assert (first.total, first.successes) == (1, 1)
    assert first.avg_confidence == pytest.approx(0.8)
    assert first.last_used is not None
    second = await store.learning.update_pattern(
        "index:file_created:act:x", success=False, confidence=0.4
    )
    assert (second.total, second.successes) == (2, 1)
    assert second.avg_confidence == pytest.approx(0.6)  # (0.8 * 1 + 0.4) / 2
    third = await store.learning.update_pattern(
        "index:file_created:act:x", success=True, confidence=0.9
    )
    assert (third.total, third.successes) == (3, 2)
    assert third.avg_confidence == pytest.approx((0.6 * 2 + 0.9) / 3)
    assert third.id == first.id
    assert await store.learning.pattern("index:file_created:act:x") == third
    assert await store.learning.pattern("no:such:pattern:key") is None


async def test_update_pattern_counts_on_the_pattern_a_decision_matched(
    memory: Memory, store: Memory, checks: GraphChecks
) -> None:
    decision = await _decision(memory, pattern_key="config:file_modified:act:reload")
    matched = await store.learning.pattern("config:file_modified:act:reload")
    assert matched is not None and matched.total == 0
    after = await store.learning.update_pattern(matched.key, success=True, confidence=0.7)
    assert after.id == matched.id
    assert (after.total, after.successes) == (1, 1)
    assert after.avg_confidence == pytest.approx(0.7)
    assert ("MATCHED", "Pattern", matched.id) in await checks.outgoing(decision.id)


# --- outcomes, lessons, calibration --------------------------------------------


async def test_an_outcome_is_recorded_once(memory: Memory, store: Memory) -> None:
    decision = await _decision(memory, confidence=0.3)
    assert await store.learning.record_outcome(decision.id, success=True, confidence=0.3)
    assert not await store.learning.record_outcome(decision.id, success=False, confidence=0.3)
    assert not await store.learning.record_outcome("no-such-decision", success=True, confidence=0.3)
    stored = await store.learning.decision(decision.id)
    assert stored is not None and stored.outcome_success is True


@pytest.mark.parametrize(
    ("confidence", "bucket"),
    [(0.0, 0), (0.05, 0), (0.1, 1), (0.3, 3), (0.7, 7), (0.899, 8), (0.9, 9), (1.0, 9)],
)
def test_calibration_bucket(confidence: float, bucket: int) -> None:
    assert calibration_bucket(confidence) == bucket


async def test_calibration_gives_count_and_success_rate_per_bucket(
    memory: Memory, store: Memory
) -> None:
    outcomes = [(0.05, True), (0.3, False), (0.35, True), (0.95, True), (1.0, False), (0.9, True)]
    for confidence, success in outcomes:
        decision = await _decision(memory, confidence=confidence)
        await store.learning.record_outcome(decision.id, success=success, confidence=confidence)
    buckets = await store.learning.calibration()
    assert [b.bucket for b in buckets] == list(range(10))
    assert buckets[3].lower == pytest.approx(0.3) and buckets[3].upper == pytest.approx(0.4)
    by = {b.bucket: b for b in buckets}
    assert (by[0].count, by[0].success_rate) == (1, 1.0)
    assert (by[3].count, by[3].successes, by[3].success_rate) == (2, 1, 0.5)
    assert by[3].mean_confidence == pytest.approx(0.325)
    assert (by[9].count, by[9].successes) == (3, 2)
    assert by[9].success_rate == pytest.approx(2 / 3)
    assert (by[5].count, by[5].success_rate, by[5].mean_confidence) == (0, None, None)


async def test_calibration_of_an_agent_with_no_outcomes(store: Memory) -> None:
    buckets = await store.learning.calibration()
    assert len(buckets) == 10 and all(b.count == 0 for b in buckets)


async def test_lessons_are_learned_from_their_decision(
    memory: Memory, store: Memory, checks: GraphChecks
) -> None:
    decision = await _decision(memory)
    lesson = Lesson(
        agent_id=memory.agent_id,
        decision_id=decision.id,
        type="timeout_failure",
        adjustment="increase_timeout",
        reason="Task timed out",
    )
    orphan = lesson.model_copy(update={"id": "orphan", "decision_id": "no-such-decision"})
    ids = await store.learning.record_lessons([lesson, orphan], execution_id="x-1")
    assert ids == [lesson.id]
    assert await checks.outgoing(lesson.id) == {("LEARNED_FROM", "Decision", decision.id)}
    [back] = await store.learning.lessons_for(decision.id)
    assert back.type == "timeout_failure" and back.reason == "Task timed out"
    node = await checks.node(lesson.id)
    assert node is not None and node["execution_id"] == "x-1"


# --- censors -------------------------------------------------------------------


def _censor(memory: Memory, trigger: str, **extra: object) -> Censor:
    return Censor(agent_id=memory.agent_id, trigger_pattern=trigger, reason="it broke", **extra)


async def test_a_censor_is_learned_from_an_execution_or_an_episode(
    memory: Memory, store: Memory, checks: GraphChecks
) -> None:
    execution_id = await _execution(memory, await _decision(memory))
    from_execution = _censor(memory, "deploy on *.yaml")
    await store.censors.create_censor(from_execution, learned_from=execution_id)
    assert await checks.outgoing(from_execution.id) == {("LEARNED_FROM", "Execution", execution_id)}
    episode, _ = await store.episodes.start_episode("s-1")
    from_episode = _censor(memory, "Avoid using Write when path=/etc")
    await store.censors.create_censor(from_episode, learned_from=episode.id)
    assert await checks.outgoing(from_episode.id) == {("LEARNED_FROM", "Episode", episode.id)}
    alone = _censor(memory, "no source")
    await store.censors.create_censor(alone, learned_from="no-such-node")
    assert await checks.outgoing(alone.id) == set()
    stored = await store.censors.censor_by_trigger("deploy on *.yaml")
    assert stored is not None
    assert (stored.severity, stored.status, stored.fire_count) == ("warn", "active", 0)


async def test_a_censor_blocks_when_it_fires_again(memory: Memory, store: Memory) -> None:
    assert BLOCK_AFTER_FIRES == 2
    censor = _censor(memory, "rm -rf build")
    await store.censors.create_censor(censor)
    once = await store.censors.fire_censor(censor.id)
    assert once is not None and (once.fire_count, once.severity) == (1, "warn")
    assert once.last_fired_at is not None
    twice = await store.censors.fire_censor(censor.id)
    assert twice is not None and (twice.fire_count, twice.severity) == (2, "block")
    thrice = await store.censors.fire_censor(censor.id)
    assert thrice is not None and (thrice.fire_count, thrice.severity) == (3, "block")
    assert await store.censors.fire_censor("no-such-censor") is None


async def test_active_censors_come_block_first(memory: Memory, store: Memory) -> None:
    warn = _censor(memory, "a warning", fire_count=5)
    block = _censor(memory, "a block", severity="block", fire_count=2)
    retired = _censor(memory, "retired", status="retired")
    for censor in (warn, block, retired):
        await store.censors.create_censor(censor)
    assert [c.id for c in await store.censors.active_censors()] == [block.id, warn.id]
    assert await store.censors.active_censor_triggers() == ["a block", "a warning"]
    assert await store.censors.active_censor_triggers(limit=1) == ["a block"]


# --- episodes, working memory, facts, procedures -----------------------------


async def test_one_open_episode_per_session(store: Memory) -> None:
    first, created = await store.episodes.start_episode("s-1")
    again, created_again = await store.episodes.start_episode("s-1")
    assert created and not created_again and again.id == first.id
    racing = await asyncio.gather(*(store.episodes.start_episode("s-2") for _ in range(5)))
    assert len({episode.id for episode, _ in racing}) == 1
    assert sum(1 for _, made in racing if made) == 1
    opened = await store.episodes.open_episode("s-1")
    assert opened is not None and opened.id == first.id
    assert await store.episodes.open_episode("s-none") is None


async def test_ending_an_episode_is_idempotent(store: Memory) -> None:
    episode, _ = await store.episodes.start_episode("s-1")
    assert await store.episodes.note_episode(
        episode.id, summary="did a", outcome="success", lessons=["x"]
    )
    assert await store.episodes.note_episode(
        episode.id, summary="did b", outcome="partial", lessons=["x", "y"]
    )
    ended, now = await store.episodes.end_episode(episode.id, outcome="completed")
    assert now and ended is not None
    assert (ended.outcome, ended.summary, ended.lessons) == ("completed", "did b", ["x", "y"])
    assert ended.ended_at is not None
    again, now_again = await store.episodes.end_episode(
        episode.id, outcome="failure", summary="other"
    )
    assert not now_again and again is not None
    assert (again.outcome, again.summary, again.ended_at) == ("completed", "did b", ended.ended_at)
    assert not await store.episodes.note_episode(episode.id, summary="late", outcome="success")
    assert await store.episodes.open_episode("s-1") is None
    fresh, created = await store.episodes.start_episode("s-1")
    assert created and fresh.id != episode.id
    assert await store.episodes.end_episode("no-such-episode", outcome="completed") == (None, False)


async def test_episode_lessons_are_kept_as_text_for_full_text_recall(
    store: Memory, checks: GraphChecks
) -> None:
    episode, _ = await store.episodes.start_episode("s-1")
    await store.episodes.end_episode(
        episode.id, outcome="completed", summary="s", lessons=["a", "b"]
    )
    node = await checks.node(episode.id)
    assert node is not None
    assert node["lessons_text"] == "a\nb" and "open_session" not in node


async def test_working_memory_is_one_node_per_session(store: Memory, checks: GraphChecks) -> None:
    assert await store.episodes.working_memory("s-1") is None
    made = await store.episodes.update_working_memory(
        "s-1", current_task="fix the build", current_frame="task", open_threads=["ci"]
    )
    kept = await store.episodes.update_working_memory(
        "s-1", current_task="explain", current_frame="question"
    )
    assert kept.id == made.id and kept.open_threads == ["ci"]
    assert (kept.current_task, kept.current_frame) == ("explain", "question")
    cleared = await store.episodes.update_working_memory("s-1", current_task="x", open_threads=[])
    assert cleared.open_threads == [] and cleared.current_frame is None
    await store.episodes.update_working_memory("s-2", current_task="other")
    assert (await checks.counts())["WorkingMemory"] == 2


async def test_facts_and_procedures_are_supported_by_episodes(
    memory: Memory, store: Memory, checks: GraphChecks
) -> None:
    first, _ = await store.episodes.start_episode("s-1")
    second, _ = await store.episodes.start_episode("s-2")
    fact = Fact(agent_id=memory.agent_id, content="The API listens on port 8080")
    await store.episodes.add_fact(fact, episode_id=first.id)
    assert await store.episodes.confirm_fact(fact.id, episode_id=second.id) == 2
    assert await store.episodes.confirm_fact(fact.id) == 3
    assert await store.episodes.confirm_fact("no-such-fact") is None
    assert await checks.outgoing(fact.id) == {
        ("SUPPORTED_BY", "Episode", first.id),
        ("SUPPORTED_BY", "Episode", second.id),
    }
    procedure = Procedure(
        agent_id=memory.agent_id, name="release", domain="ops", core_patterns=["tag", "push"]
    )
    await store.episodes.add_procedure(procedure, episode_id=first.id)
    assert await store.episodes.confirm_procedure(procedure.id) == 2
    node = await checks.node(procedure.id)
    assert node is not None and node["core_patterns_text"] == "tag\npush"
    assert await checks.outgoing(procedure.id) == {("SUPPORTED_BY", "Episode", first.id)}


async def test_a_remembered_fact_takes_the_ones_before_it_as_context(
    memory: Memory, store: Memory, checks: GraphChecks, driver: GraphDriver
) -> None:
    async def told(text: str, source: str, session_id: str, who: Memory = store) -> str:
        fact = Fact(agent_id=who.agent_id, content=text)
        return await who.episodes.remember_fact(fact, source=source, session_id=session_id)

    other = Memory(driver, f"other-{memory.agent_id}")
    try:
        asked = await told("Ana: did you ever see the Louvre?", "chat", "s-1")
        # Another agent, the same session and source: nothing crosses agents.
        await told("Zed: the museum was closed", "chat", "s-1", who=other)
        answered = await told("Ben: yes, last May, it was amazing", "chat", "s-1")
        liked = await told("Ana: what did you like most?", "chat", "s-1")
        elsewhere = await told("Cy: it rained all week", "chat", "s-2")  # another session
        aside = await told("Ben: the build needs Java 17", "docs/build.md", "s-1")  # source
        learned = Fact(agent_id=memory.agent_id, content="learned from an episode")
        await store.episodes.add_fact(learned)
    finally:
        await other.forget()
    node = await checks.node(answered)
    assert node is not None and node["context"] == "Ana: did you ever see the Louvre?"
    assert node["text_in_context"] == (
        "Ana: did you ever see the Louvre?\nBen: yes, last May, it was amazing"
    )
    assert await checks.outgoing(answered) == {("FOLLOWS", "Fact", asked)}
    node = await checks.node(liked)  # the two facts before it, oldest first
    assert node is not None and node["context"] == (
        "Ana: did you ever see the Louvre?\nBen: yes, last May, it was amazing"
    )
    assert await checks.outgoing(liked) == {("FOLLOWS", "Fact", answered)}
    for alone, text in (
        (asked, "Ana: did you ever see the Louvre?"),
        (elsewhere, "Cy: it rained all week"),
        (aside, "Ben: the build needs Java 17"),
        (learned.id, "learned from an episode"),
    ):
        node = await checks.node(alone)
        assert node is not None and "context" not in node, text
        assert node["text_in_context"] == text
        assert await checks.outgoing(alone) == set()


# --- events --------------------------------------------------------------------


async def test_events_are_written_with_json_data(store: Memory) -> None:
    at = utc_now()
    event_id = await store.events.emit("turn_completed", {"at": at, "n": 1}, session_id="s-1")
    assert event_id is not None
    [event] = await store.events.events("turn_completed")
    assert event.id == event_id and event.data == {"at": str(at), "n": 1}
    assert await store.events.events("other") == []


async def test_emit_never_raises(
    neo4j_endpoint: Neo4jEndpoint, agent_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    never_started = GraphDriver(neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password)
    store = Memory(never_started, agent_id)
    with caplog.at_level(logging.WARNING, logger="graph.store.learning"):
        assert await store.events.emit("turn_completed", {"n": 1}) is None
    assert "turn_completed" in caplog.text
