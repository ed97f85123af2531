"""The censor check before acting reads recall's censors when they are all of them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import neo4j

from cognition.act.action import PlannedAction
from cognition.act.plan import check_censor, recalled_censors
from cognition.frames.spec import SEED_FRAMES
from cognition.learn.learner import CensorBook
from cognition.recall.gather import Recall
from cognition.schemas import DecisionContext, Deliberation, TemplateOption
from graph.models import ActionTarget, DecisionType, Observation, ObservationType
from graph.models.frame import FrameSpec
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.support.graph_checks import CHECKS

TASK = next(f for f in SEED_FRAMES if f.name == "task")
TRIGGER = "process_intake on _intake/*.md"


def _templates(observation: Observation, file: object) -> list[TemplateOption]:
    return []


def _act() -> tuple[PlannedAction, Deliberation]:
    planned = PlannedAction(
        target=ActionTarget.CLAUDE_CODE, prompt="file the note", template="process_intake"
    )
    deliberation = Deliberation(
        decision_type=DecisionType.ACT,
        template="process_intake",
        confidence=0.9,
        raw_confidence=0.9,
        reasoning="r",
        reasoner="rules",
    )
    return planned, deliberation


async def _context(memory: Memory, tmp_path: Path, frame: FrameSpec = TASK) -> DecisionContext:
    note = Observation(
        agent_id=memory.agent_id, type=ObservationType.FILE_CREATED, path="_intake/a.md"
    )
    await memory.record_observations([note])
    return await Recall(memory, tmp_path, _templates).build([note], frame)


async def test_an_act_checks_recalls_censors_without_a_query(
    memory: Memory, tmp_path: Path
) -> None:
    book = CensorBook(memory.censors)
    for _ in range(2):  # filed at warn, blocks when it fires again
        await book.record_failure(TRIGGER, reason="permission denied")
    context = await _context(memory, tmp_path)
    known = recalled_censors(context, memory.censors)
    assert known is not None and [c.trigger_pattern for c in known] == [TRIGGER]
    before = memory.driver.statements
    planned, deliberation = _act()
    kept, after = await check_censor(planned, deliberation, "_intake/a.md", memory.censors, known)
    assert kept is None and after.decision_type is DecisionType.ESCALATE
    assert "blocked by censor" in after.reasoning
    # Another path's action is not blocked, and neither check asked Neo4j anything.
    kept, after = await check_censor(planned, deliberation, "notes/a.md", memory.censors, known)
    assert kept is planned and after.decision_type is DecisionType.ACT
    assert memory.driver.statements == before


async def test_a_censor_written_after_recall_is_looked_up(memory: Memory, tmp_path: Path) -> None:
    context = await _context(memory, tmp_path)
    assert recalled_censors(context, memory.censors) == []  # none yet, and that is all of them
    book = CensorBook(memory.censors)
    for _ in range(2):  # a running action failed twice while this decision deliberated
        await book.record_failure(TRIGGER, reason="permission denied")
    known = recalled_censors(context, memory.censors)
    assert known is None
    planned, deliberation = _act()
    before = memory.driver.statements
    kept, after = await check_censor(planned, deliberation, "_intake/a.md", memory.censors, known)
    assert kept is None and after.decision_type is DecisionType.ESCALATE
    assert memory.driver.statements == before + 1


async def test_a_list_cut_by_the_frame_is_not_taken_for_all(memory: Memory, tmp_path: Path) -> None:
    book = CensorBook(memory.censors)
    for n in range(3):
        await book.record_failure(f"process_intake on folder{n}/*.md", reason="denied")
    narrow = FrameSpec(
        name="narrow", title="Narrow", budget=TASK.budget.model_copy(update={"censors": 40})
    )
    context = await _context(memory, tmp_path, narrow)  # room for two censors of three
    assert len(context.censors) == 2 and recalled_censors(context, memory.censors) is None
    context = await _context(memory, tmp_path)
    assert len(context.censors) == 3 and recalled_censors(context, memory.censors) is not None


async def test_a_recall_made_while_a_censor_is_being_fired_is_not_taken_as_current(
    memory: Memory, tmp_path: Path, neo4j_endpoint: Neo4jEndpoint
) -> None:
    await CensorBook(memory.censors).record_failure(TRIGGER, reason="permission denied")
    censor = await memory.censors.censor_by_trigger(TRIGGER)
    assert censor is not None and censor.severity == "warn"
    note = Observation(
        agent_id=memory.agent_id, type=ObservationType.FILE_CREATED, path="_intake/a.md"
    )
    await memory.record_observations([note])
    hold = CHECKS.get("checks/hold_censor").text
    auth = (neo4j_endpoint.user, neo4j_endpoint.password)
    raw = neo4j.AsyncGraphDatabase.driver(neo4j_endpoint.uri, auth=auth)
    async with raw, raw.session(database=neo4j_endpoint.database) as session:
        lock = await session.begin_transaction()
        await (await lock.run(hold, censor_id=censor.id)).consume()
        # An action's second failure fires the censor (warn -> block); its write waits on
        # the lock, so a decision's recall now reads the censor still at warn.
        firing = asyncio.create_task(memory.censors.fire_censor(censor.id))
        await asyncio.sleep(0.2)
        context = await Recall(memory, tmp_path, _templates).build([note], TASK)
        assert [c.severity for c in context.censors] == ["warn"]
        await lock.rollback()
    fired = await firing
    assert fired is not None and fired.severity == "block"
    # Recall read the censor before the firing committed: its list is not trusted.
    assert recalled_censors(context, memory.censors) is None
