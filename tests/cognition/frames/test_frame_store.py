"""Frames as Frame nodes (seed 004's test_frames, database parts) against a real Neo4j."""

from __future__ import annotations

from pathlib import Path

import pytest

from cognition.decision_draft import frame_text
from cognition.frames.engine import FrameEngine
from cognition.frames.spec import SEED_FRAMES
from graph.models import Decision, DecisionType, Observation, ObservationType
from graph.models.frame import FrameSpec
from graph.server.finder import Neo4jEndpoint
from graph.store.decisions import DecisionStore
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.migrate import split_statements
from tests.support.graph_checks import open_checks

BY_NAME = {frame.name: frame for frame in SEED_FRAMES}


@pytest.fixture
def frames(memory: Memory) -> FrameEngine:
    return FrameEngine(memory)


async def test_frame_list_gives_the_six_seed_frames(frames: FrameEngine) -> None:
    listed = await frames.list_frames()
    assert sorted(f.frame_id for f in listed) == sorted(f.name for f in SEED_FRAMES)
    # Highest priority first: decision > debug > task > question > creative > conversation.
    assert [f.frame_id for f in listed] == [
        "decision",
        "debug",
        "task",
        "question",
        "creative",
        "conversation",
    ]
    assert all(f.node_id and f.usage_count == 0 for f in listed)


async def test_seeding_is_idempotent(frames: FrameEngine, memory: Memory) -> None:
    assert await frames.seed() == 6
    assert await frames.seed() == 0
    assert await FrameEngine(memory).seed() == 0
    assert len(await frames.list_frames()) == 6


async def test_frame_get_fetches_one_frame(frames: FrameEngine) -> None:
    decision = await frames.get("decision")
    assert decision is not None
    assert (decision.frame_name, decision.priority) == ("Decision Making", 6)
    assert decision.default_category == "architecture" and decision.default_stakes == "high"
    assert decision.budget.total == 12000 and decision.budget.decisions == 3000
    assert decision.questions_to_ask and "should" in decision.activation_patterns
    assert decision.spec() == next(f for f in SEED_FRAMES if f.name == "decision")
    assert await frames.get("no-such-frame") is None


@pytest.mark.parametrize(
    ("text", "expected", "method"),
    [
        pytest.param("should we use Redis?", "decision", "pattern", id="decision"),
        pytest.param("build a REST API", "task", "pattern", id="task"),
        pytest.param("error in deployment", "debug", "pattern", id="debug"),
        pytest.param("hey how are you", "conversation", "pattern", id="conversation"),
        pytest.param("xyzzy foobar", "conversation", "default", id="no-match"),
        pytest.param("should we fix this bug", "decision", "pattern", id="tiebreak"),
    ],
)
async def test_frame_select(frames: FrameEngine, text: str, expected: str, method: str) -> None:
    selection = await frames.select_detail(text)
    assert (selection.frame_id, selection.match_method) == (expected, method)


async def test_selection_confidence(frames: FrameEngine) -> None:
    assert (await frames.select_detail("should we use Redis?")).confidence == 1.0
    # decision, task and debug each match one word of "should we fix this bug".
    assert (await frames.select_detail("should we fix this bug")).confidence == pytest.approx(1 / 3)
    assert (await frames.select_detail("xyzzy")).confidence == 0.0


async def test_frame_usage_count_increments(frames: FrameEngine) -> None:
    assert (await frames.select_detail("should we use Redis?")).usage_count == 1
    assert (await frames.select_detail("should we use Postgres?")).usage_count == 2
    await frames.select_detail("xyzzy")
    counts = {f.frame_id: f.usage_count for f in await frames.list_frames()}
    assert counts["decision"] == 2 and counts["conversation"] == 1 and counts["task"] == 0


async def test_select_returns_the_frame_spec_and_honours_a_default(frames: FrameEngine) -> None:
    spec = (await frames.select_detail("modified src main py", default="task")).spec()
    assert isinstance(spec, FrameSpec) and spec.name == "task"
    chosen = await frames.select_detail("xyzzy", default="task")
    assert (chosen.frame_id, chosen.match_method) == ("task", "default")
    missing = await frames.select_detail("xyzzy", default="no-such-frame")
    assert missing.frame_id == "conversation"


async def test_usage_breaks_ties_between_equal_frames(memory: Memory) -> None:
    alpha = FrameSpec(name="alpha", title="Alpha", activation_patterns=("foo",), priority=1)
    beta = FrameSpec(name="beta", title="Beta", activation_patterns=("foo", "bar"), priority=1)
    frames = FrameEngine(memory, seeds=[alpha, beta])
    assert (await frames.select_detail("foo")).frame_id == "alpha"  # a full tie: listed first
    assert (await frames.select_detail("bar")).frame_id == "beta"
    assert (await frames.select_detail("bar")).frame_id == "beta"
    # Same score, same priority: beta has been used more often now.
    assert (await frames.select_detail("foo")).frame_id == "beta"


async def test_frames_belong_to_their_agent(driver: GraphDriver, memory: Memory) -> None:
    await FrameEngine(memory).select_detail("should we")
    other = Memory(driver, memory.agent_id + "-other")
    try:
        counts = {f.frame_id: f.usage_count for f in await FrameEngine(other).list_frames()}
        assert counts["decision"] == 0
    finally:
        await other.forget()


@pytest.mark.parametrize(
    ("kind", "path", "expected"),
    [
        pytest.param(ObservationType.PROCESS_FAILED, "jobs/nightly.sh", "debug", id="failed"),
        pytest.param(ObservationType.TASK_FAILED, None, "debug", id="task-failed"),
        pytest.param(ObservationType.FILE_MODIFIED, "src/db.py", "task", id="matches-nothing"),
        pytest.param(ObservationType.FILE_DELETED, "notes/plan.md", "task", id="whole-words"),
    ],
)
async def test_the_daemons_frame_follows_a_changes_words(
    frames: FrameEngine, kind: ObservationType, path: str | None, expected: str
) -> None:
    # As the decision loop chooses (cognition.loop): by frame_text, "task" by default.
    text = frame_text(Observation(agent_id="a", type=kind, path=path))
    assert (await frames.choose(text, default="task")).name == expected, text


async def test_choose_writes_nothing_and_the_decision_counts_the_use(memory: Memory) -> None:
    engine = FrameEngine(memory)
    await engine.seed()
    assert (await engine.choose("error in deployment")).name == "debug"
    assert (await engine.choose("xyzzy foobar", default="task")).name == "task"
    assert {f.usage_count for f in await engine.list_frames()} == {0}
    decision = Decision(agent_id=memory.agent_id, type=DecisionType.WAIT, confidence=0.4)
    await DecisionStore(memory).record_decision(decision, [], observation_ids=[], frame="debug")
    uses = {f.frame_id: f.usage_count for f in await engine.list_frames()}
    assert uses["debug"] == 1 and uses["task"] == 0


# The seed script's words, as every agent seeded before migration 023 holds them.
OLD_TASK_WORDS = ["build", "fix", "create", "implement", "deploy"]
OLD_DEBUG_WORDS = ["error", "bug", "broken", "failing", "crash", "wrong"]
WORDS_MIGRATION = "023_frame_words_for_coding_prompts.cypher"


async def run_words_migration(driver: GraphDriver) -> None:
    """Run migration 023's statements as the migrator does, one by one."""
    schema = driver.queries.root / "schema" / WORDS_MIGRATION
    for statement in split_statements(Path(schema).read_text(encoding="utf-8")):
        await driver.run_schema(statement.rstrip(";"), source=str(schema))


async def test_migration_023_widens_only_frames_that_hold_the_old_seed_words(
    frames: FrameEngine, memory: Memory, driver: GraphDriver, neo4j_endpoint: Neo4jEndpoint
) -> None:
    await frames.seed()
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        await checks.memory.write("checks/set_frame_words", name="task", words=OLD_TASK_WORDS)
        await checks.memory.write("checks/set_frame_words", name="debug", words=OLD_DEBUG_WORDS)
        # A frame a person tuned is theirs: the migration leaves it alone.
        tuned = ["ship", "deploy"]
        await checks.memory.write("checks/set_frame_words", name="decision", words=tuned)
    assert (await FrameEngine(memory).match("Add logging to the importer")).frame_id == (
        "conversation"
    )
    for _ in range(2):  # run again (a migration cut half way): the same words
        await run_words_migration(driver)
        stored = {f.frame_id: tuple(f.activation_patterns) for f in await frames.list_frames()}
        # The migration's lists are the seed's, word for word.
        assert stored["task"] == BY_NAME["task"].activation_patterns
        assert stored["debug"] == BY_NAME["debug"].activation_patterns
        assert stored["decision"] == tuple(tuned)
    engine = FrameEngine(memory)
    assert (await engine.match("Add logging to the importer")).frame_id == "task"
    assert (await engine.match("the nightly tests fail")).frame_id == "debug"


async def test_a_frame_tuned_before_023_keeps_its_words(
    frames: FrameEngine, memory: Memory, driver: GraphDriver, neo4j_endpoint: Neo4jEndpoint
) -> None:
    await frames.seed()
    mine = [*OLD_TASK_WORDS, "ship"]
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        await checks.memory.write("checks/set_frame_words", name="task", words=mine)
    await run_words_migration(driver)
    task = await frames.get("task")
    assert task is not None and task.activation_patterns == mine
