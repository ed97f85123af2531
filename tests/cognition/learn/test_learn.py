"""Learning from outcomes (seed 000 section 5.2), censors and episodes, against a real Neo4j."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cognition.learn.learner import (
    CensorBook,
    OutcomeLearner,
    censor_worthy,
    draw_lessons,
    works_here,
)
from cognition.monitor import ToolError, assess
from graph.models import ActionTarget, Decision, DecisionType, Execution, Pattern
from graph.models.paths import path_pattern
from graph.server.finder import Neo4jEndpoint
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory
from tests.support.graph_checks import GraphChecks, open_checks

KEY = "execution:process_failed:act:run_tests"


@pytest.fixture
async def checks(neo4j_endpoint: Neo4jEndpoint, agent_id: str) -> AsyncIterator[GraphChecks]:
    async with open_checks(neo4j_endpoint, agent_id) as instance:
        yield instance


async def _decision(memory: Memory, confidence: float, pattern_key: str | None = KEY) -> Decision:
    decision = Decision(
        agent_id=memory.agent_id,
        type=DecisionType.ACT,
        confidence=confidence,
        pattern_key=pattern_key,
        template="run_tests",
    )
    await DecisionStore(memory).record_decision(
        decision, [], observation_ids=[], pattern_key=pattern_key
    )
    return decision


def _plain(confidence: float) -> Decision:
    return Decision(agent_id="a", type=DecisionType.ACT, confidence=confidence, pattern_key=KEY)


# --- seed 000's lesson rules ----------------------------------------------------


@pytest.mark.parametrize(
    ("confidence", "success", "error", "failure_type", "expected"),
    [
        pytest.param(0.4, True, None, None, ["confidence_too_low"], id="too-low"),
        pytest.param(0.5, True, None, None, [], id="not-too-low-at-0.5"),
        pytest.param(0.9, True, None, None, [], id="confident-success"),
        pytest.param(0.9, False, "boom", None, ["confidence_too_high"], id="too-high"),
        pytest.param(0.8, False, "boom", None, [], id="not-too-high-at-0.8"),
        pytest.param(0.6, False, "Task timeout after 30s", None, ["timeout_failure"], id="timeout"),
        pytest.param(0.6, False, "Permission denied", None, ["permission_failure"], id="perm"),
        pytest.param(0.6, False, "Access is denied", None, ["permission_failure"], id="access"),
        pytest.param(0.6, False, "x", "timeout", ["timeout_failure"], id="by-failure-type"),
        pytest.param(
            0.6, False, "No such file", "file_not_found", ["missing_file_failure"], id="missing"
        ),
        pytest.param(0.6, False, "x", "dependency_error", ["dependency_failure"], id="dependency"),
        pytest.param(0.6, False, "x", "syntax_error", ["syntax_failure"], id="syntax"),
        # The classifier's word wins over the seed's substrings.
        pytest.param(0.6, False, "access log full", "validation_failure", [], id="typed"),
        pytest.param(
            0.95,
            False,
            "timed out",
            None,
            ["confidence_too_high", "timeout_failure"],
            id="both",
        ),
    ],
)
def test_lesson_rules(
    confidence: float,
    success: bool,
    error: str | None,
    failure_type: str | None,
    expected: list[str],
) -> None:
    lessons = draw_lessons(
        _plain(confidence), success=success, error=error, failure_type=failure_type
    )
    assert [lesson.type for lesson in lessons] == expected
    assert all(lesson.pattern_key == KEY for lesson in lessons)


def test_lesson_adjustments_and_reasons_follow_the_seed() -> None:
    [low] = draw_lessons(_plain(0.3), success=True)
    assert (low.adjustment, low.reason) == ("increase", "Succeeded despite low confidence")
    [high] = draw_lessons(_plain(0.9), success=False, error="disk\x1b[31m full\n")
    assert high.adjustment == "decrease"
    assert high.reason == "Failed despite high confidence: disk full"
    [unknown] = draw_lessons(_plain(0.9), success=False)
    assert unknown.reason == "Failed despite high confidence: unknown"
    [timeout] = draw_lessons(_plain(0.6), success=False, error="timeout")
    assert (timeout.adjustment, timeout.reason) == ("increase_timeout", "Task timed out")
    [perm] = draw_lessons(_plain(0.6), success=False, error="permission denied")
    assert (perm.adjustment, perm.reason) == ("check_permissions", "Permission/access error")


# --- OutcomeLearner against the graph -----------------------------------------


async def test_learn_updates_pattern_calibration_and_lessons(
    memory: Memory, checks: GraphChecks
) -> None:
    learner = OutcomeLearner(memory)
    decision = await _decision(memory, confidence=0.9)
    lessons = await learner.learn(
        decision, success=False, error="Permission denied: /etc/hosts", execution_id="x-1"
    )
    assert [lesson.type for lesson in lessons] == ["confidence_too_high", "permission_failure"]
    assert [lesson.id for lesson in await memory.learning.lessons_for(decision.id)] == [
        lesson.id for lesson in lessons
    ]
    for lesson in lessons:
        assert await checks.outgoing(lesson.id) == {("LEARNED_FROM", "Decision", decision.id)}
    pattern = await memory.learning.pattern(KEY)
    assert pattern is not None
    assert (pattern.total, pattern.successes) == (1, 0)
    assert pattern.avg_confidence == pytest.approx(0.9)
    buckets = {b.bucket: b for b in await memory.learning.calibration()}
    assert (buckets[9].count, buckets[9].success_rate) == (1, 0.0)
    [event] = await memory.events.events("outcome_learned")
    assert event.data["decision_id"] == decision.id
    assert event.data["lessons"] == ["confidence_too_high", "permission_failure"]


async def test_learning_twice_from_one_decision_counts_once(memory: Memory) -> None:
    learner = OutcomeLearner(memory)
    decision = await _decision(memory, confidence=0.3)
    assert len(await learner.learn(decision, success=True)) == 1
    assert await learner.learn(decision, success=True) == []
    pattern = await memory.learning.pattern(KEY)
    assert pattern is not None and (pattern.total, pattern.successes) == (1, 1)
    assert len(await memory.learning.lessons_for(decision.id)) == 1


async def test_patterns_accumulate_over_decisions(memory: Memory) -> None:
    learner = OutcomeLearner(memory)
    for confidence, success in [(0.6, True), (0.7, False), (0.8, True)]:
        await learner.learn(await _decision(memory, confidence), success=success)
    pattern = await memory.learning.pattern(KEY)
    assert pattern is not None
    assert (pattern.total, pattern.successes) == (3, 2)
    assert pattern.avg_confidence == pytest.approx(0.7)
    assert pattern.success_rate == pytest.approx(2 / 3)


async def test_a_decision_without_a_pattern_still_teaches(memory: Memory) -> None:
    decision = await _decision(memory, confidence=0.2, pattern_key=None)
    [lesson] = await OutcomeLearner(memory).learn(decision, success=True)
    assert lesson.type == "confidence_too_low" and lesson.pattern_key is None


# --- CensorBook -----------------------------------------------------------------


async def test_a_lasting_failure_warns_then_blocks(memory: Memory, checks: GraphChecks) -> None:
    decision = await _decision(memory, confidence=0.7)
    execution = Execution(
        agent_id=memory.agent_id, decision_id=decision.id, target=ActionTarget.DRY_RUN
    )
    execution_id = await DecisionStore(memory).start_execution(execution)
    book = CensorBook(memory.censors)
    first = await book.record_failure(
        "run_tests on tests/*.py",
        reason="SyntaxError\x1b[0m in conftest",
        execution_id=execution_id,
    )
    assert (first.severity, first.fire_count, first.status) == ("warn", 1, "active")
    assert first.reason == "SyntaxError in conftest"
    assert await checks.outgoing(first.id) == {("LEARNED_FROM", "Execution", execution_id)}
    second = await book.record_failure("run_tests on tests/*.py", reason="again")
    assert second.id == first.id
    assert (second.severity, second.fire_count) == ("block", 2)
    assert [c.id for c in await book.store.active_censors()] == [first.id]


async def test_censors_from_an_assessed_turn(memory: Memory, checks: GraphChecks) -> None:
    episode_id = (await memory.episodes.start_episode("s-1"))[0].id
    book = CensorBook(memory.censors)
    tool_error = ToolError("Permission denied", "Write", {"path": "/etc/hosts"})
    # A tool error alone (surprise 0.3) files a censor: the layer's tests win (see censor_worthy).
    low = assess("", [tool_error], None)
    assert low.surprise_level == 0.3 and censor_worthy(low) == low.censor_candidates
    [censor] = await book.from_assessment(low, episode_id=episode_id)
    assert censor.trigger_pattern == (
        "Avoid using Write when called with path=/etc/hosts — caused: Permission denied"
    )
    assert await checks.outgoing(censor.id) == {("LEARNED_FROM", "Episode", episode_id)}
    # Seed 004's test_learn_creates_censors: high surprise with candidates; the same error
    # again fires the same censor, which now blocks.
    high = assess("", [tool_error], "turn aborted")
    [again] = await book.from_assessment(high, episode_id=episode_id)
    assert again.id == censor.id and again.severity == "block"
    # Transient errors never become censors, however surprising the turn.
    transient = assess("It failed.", [ToolError("HTTP 429 rate limit", "fetch")], "timeout")
    assert await book.from_assessment(transient) == []
    assert len(await book.store.active_censors()) == 1


# --- Episodes -----------------------------------------------------------------------


async def test_episodes_survive_a_restart(memory: Memory) -> None:
    episode, _ = await memory.episodes.start_episode("s-1")
    # A new process: new objects over the same graph find the same open episode.
    restarted = Memory(memory.driver, memory.agent_id).episodes
    again, created = await restarted.start_episode("s-1")
    assert again.id == episode.id and not created
    current = await restarted.open_episode("s-1")
    assert current is not None and current.id == episode.id
    [started] = await memory.events.events("episode_started")
    assert started.data == {"episode_id": episode.id}


async def test_ending_an_episode_twice_is_harmless(memory: Memory) -> None:
    episodes = memory.episodes
    episode_id = (await episodes.start_episode("s-1"))[0].id
    await episodes.note_episode(episode_id, summary="task: done", outcome="success", lessons=["l1"])
    ended, first = await episodes.end_episode(
        episode_id, outcome="completed", summary="daemon stopped"
    )
    assert first and ended is not None and ended.id == episode_id
    assert (ended.outcome, ended.summary, ended.lessons) == ("completed", "daemon stopped", ["l1"])
    assert not (await episodes.end_episode(episode_id, outcome="failure"))[1]
    assert (await episodes.end_episode("no-such-episode", outcome="completed"))[1] is False
    assert await episodes.open_episode("s-1") is None
    assert not await episodes.note_episode(episode_id, summary="late", outcome="success")


async def test_ending_a_session_ends_its_open_episode(memory: Memory) -> None:
    episodes = memory.episodes
    episode_id = (await episodes.start_episode("s-1"))[0].id
    ended = await episodes.end_session("s-1")
    assert ended is not None and (ended.id, ended.outcome) == (episode_id, "completed")
    assert await episodes.end_session("s-1") is None
    assert (await episodes.start_episode("s-1"))[0].id != episode_id


async def test_an_outcome_counts_on_its_kind_of_path_too(memory: Memory) -> None:
    learner = OutcomeLearner(memory)
    for path, success in [("tests/a.py", True), ("tests/b.py", True), ("docs/c.md", False)]:
        decision = await _decision(memory, 0.7)
        decision.path, decision.path_pattern = path, path_pattern(path)
        await learner.learn(decision, success=success)

    everywhere, tests, docs = [
        await memory.learning.pattern(key)
        for key in (KEY, f"{KEY} on tests/*.py", f"{KEY} on docs/*.md")
    ]
    assert everywhere is not None and (everywhere.total, everywhere.successes) == (3, 2)
    assert tests is not None and (tests.total, tests.successes) == (2, 2)
    assert docs is not None and (docs.total, docs.successes) == (1, 0)


@pytest.mark.parametrize(
    ("total", "successes", "expected"),
    [(None, None, False), (2, 2, False), (3, 1, False), (3, 2, True), (10, 5, True)],
)
def test_works_here_needs_a_record_mostly_of_success(
    total: int | None, successes: int | None, expected: bool
) -> None:
    record = (
        None
        if total is None
        else Pattern(agent_id="a", key=f"{KEY} on x/*.md", total=total, successes=successes or 0)
    )
    assert works_here(record) is expected


async def test_a_repeat_where_the_action_mostly_works_stays_a_warning(
    memory: Memory,
) -> None:
    book = CensorBook(memory.censors)
    trigger = "run_tests on tests/*.py"
    first = await book.record_failure(trigger, reason="flaky fixture", works_here=True)
    again = await book.record_failure(trigger, reason="flaky fixture", works_here=True)
    assert again.id == first.id
    assert (again.severity, again.fire_count) == ("warn", 2)
    # Where it does not work, the next repeat blocks as before.
    blocked = await book.record_failure(trigger, reason="flaky fixture")
    assert (blocked.severity, blocked.fire_count) == ("block", 3)
