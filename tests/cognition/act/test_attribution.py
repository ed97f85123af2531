"""The agent's own edits: attributed to the running execution, written processed, CAUSED_BY it."""

from __future__ import annotations

import uuid

from cognition.act.attribution import ActiveExecutions
from cognition.sense.classify import ObservationClassifier
from cognition.sense.ingest import Ingestor
from graph.models import (
    ActionTarget,
    Decision,
    DecisionType,
    Execution,
    Observation,
    ObservationType,
)
from graph.settings import SenseSettings
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _obs(agent_id: str, path: str) -> Observation:
    return Observation(agent_id=agent_id, type=ObservationType.FILE_MODIFIED, path=path)


def test_changes_during_and_just_after_an_execution_are_its_own() -> None:
    clock = Clock()
    active = ActiveExecutions(grace_s=2.0, clock=clock)
    assert active.attribute(_obs("a", "x.md")).caused_by is None
    with active.running("exec-1"):
        seen = active.attribute(_obs("a", "x.md"))
        assert seen.caused_by == "exec-1" and seen.processed
    clock.now += 1.5  # the watcher's debounce delivers late changes
    assert active.attribute(_obs("a", "y.md")).caused_by == "exec-1"
    clock.now += 1.0
    assert active.attribute(_obs("a", "z.md")).caused_by is None


def test_the_latest_started_execution_wins() -> None:
    clock = Clock()
    active = ActiveExecutions(clock=clock)
    with active.running("first"):
        clock.now += 1
        with active.running("second"):
            assert active.current() == "second"
        assert active.current() == "first"


async def test_own_edits_are_written_caused_by_and_never_unprocessed(memory: Memory) -> None:
    store = DecisionStore(memory)
    decision = Decision(agent_id=memory.agent_id, type=DecisionType.ACT, confidence=0.9)
    await store.record_decision(decision, [], observation_ids=[])
    execution = Execution(
        id=str(uuid.uuid4()),
        agent_id=memory.agent_id,
        decision_id=decision.id,
        target=ActionTarget.CLAUDE_CODE,
    )
    await store.start_execution(execution)
    active = ActiveExecutions(grace_s=0.0)
    ingestor = Ingestor(memory, ObservationClassifier(SenseSettings()), attribute=active.attribute)
    with active.running(execution.id):
        ingestor.submit([_obs(memory.agent_id, "notes/out.md")])
    ingestor.submit([_obs(memory.agent_id, "notes/theirs.md")])  # a person's edit, later
    await ingestor.flush()
    unprocessed = await store.unprocessed_observations(10)
    assert [o.path for o in unprocessed] == ["notes/theirs.md"]
    [own] = await memory.observations_for_path("notes/out.md")
    assert own.caused_by == execution.id
    rows = await memory.read("audit/own_edits", execution_id=execution.id)
    assert [r["path"] for r in rows] == ["notes/out.md"]
