"""The decision loop end to end, in process: real Neo4j and files, stand-in claude, stub LLM.

Each test builds the loop with the scheduler's own ``build_loop`` on a
temporary root, gets observations the daemon's way (the rescan through the
ingestor), runs ``tick()`` and reads what the graph says happened.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from graph.models import Observation, ObservationType, utc_now
from graph.settings import WatchSettings
from graph.store.memory import Memory
from graph.store.recall import RecallRequest, RecallStore
from graph.watch.watcher import FileWatcher
from scheduler.jobs import StatusLine, watch_into
from tests.support.eventually import eventually
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply
from tests.support.loop_rig import LoopRig, loop_rig, loop_settings
from tests.support.processes import gone

REPO = Path(__file__).resolve().parents[2]
STAND_IN = REPO / "tests" / "bin" / "claude"


@dataclass
class Rig(LoopRig):
    """A loop on a temporary root, with the levers the tests pull."""

    script: Path
    log: Path

    def claude_does(self, **script: Any) -> None:
        self.script.write_text(json.dumps(script))

    async def rows(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return await self.memory.read(name, **params)


async def _rig(tmp_path: Path, memory: Memory, **overrides: Any) -> AsyncIterator[Rig]:
    root = tmp_path / "root"
    (root / "_intake").mkdir(parents=True, exist_ok=True)
    settings = loop_settings(root, STAND_IN, **overrides)
    script, log = tmp_path / "claude-script.json", tmp_path / "claude-log.jsonl"
    script.write_text("{}")
    env = {
        "PATH": os.environ.get("PATH", ""),
        "FAKE_CLAUDE_SCRIPT": str(script),
        "FAKE_CLAUDE_LOG": str(log),
        "CLAUDECODE": "1",  # must be removed before the child starts
    }
    async with loop_rig(settings, memory, root, env, grace_s=0.5) as parts:
        yield Rig(parts.root, memory, parts.ingestor, parts.index_sync, parts.runtime, script, log)


@pytest.fixture
async def rig(tmp_path: Path, memory: Memory) -> AsyncIterator[Rig]:
    async for made in _rig(tmp_path, memory):
        yield made


async def test_intake_file_goes_all_the_way_to_pattern_and_outcome(rig: Rig) -> None:
    (rig.root / "_intake" / "idea.md").write_text("# An idea\nworth keeping\n")
    rig.claude_does(
        edits=[{"path": "knowledge/idea.md", "content": "# Idea, filed\n"}],
        result="created knowledge/idea.md",
    )
    await rig.observe()
    report = await rig.tick_and_act()

    [decision] = report.decisions
    assert (decision.type.value, decision.template, decision.reasoner.value) == (
        "act",
        "process_intake",
        "rules",
    )
    [outcome] = report.outcomes
    assert outcome.success and outcome.attempts == 1
    assert (rig.root / "knowledge" / "idea.md").read_text() == "# Idea, filed\n"

    links = await rig.rows("audit/decision_links", decision_id=decision.id)
    assert {r["type"]: r["count"] for r in links} == {
        "CONSIDERED": 1,
        "HAS_STEP": 5,
        "MATCHED": 1,
        "USED": 1,
        "EXECUTED_AS": 1,
        "IN_EPISODE": 1,
    }
    pattern = await rig.memory.learning.pattern(decision.pattern_key or "")
    assert pattern is not None and (pattern.total, pattern.successes) == (1, 1)
    # The stand-in ran with the execution's id as its session id, without CLAUDECODE.
    [run] = [json.loads(line) for line in rig.log.read_text().splitlines()]
    assert run["argv"][run["argv"].index("--session-id") + 1] == outcome.execution_id
    assert run["claudecode_set"] is False


async def test_the_stand_ins_own_edits_start_no_new_action(rig: Rig) -> None:
    (rig.root / "_intake" / "note.md").write_text("a note\n")
    rig.claude_does(
        sleep_s=0.5,  # long enough for the watcher to see its edit while it runs
        # In the action's working set, where update_index would act on a person's edit.
        edits=[{"path": "knowledge/reply.md", "content": "an answer, filed\n"}],
    )
    await rig.observe()
    # The daemon's watcher, feeding the same ingestor, as in production.
    watcher = FileWatcher(rig.root, WatchSettings(debounce_ms=100), rig.memory.agent_id)
    stop = asyncio.Event()
    status = StatusLine(rig.ingestor, rig.index_sync, out=io.StringIO())
    watching = asyncio.create_task(watch_into(watcher, rig.ingestor, stop, status))
    try:
        await asyncio.wait_for(watcher.ready.wait(), 10)
        first = await rig.tick_and_act()
        assert [d.type.value for d in first.decisions] == ["act"]

        async def reply_recorded() -> bool:
            await rig.ingestor.flush()  # what the watcher handed over, written now
            return bool(await rig.memory.observations_for_path("knowledge/reply.md"))

        await eventually(reply_recorded, "the stand-in's edit recorded")
    finally:
        stop.set()
        await watching
    second = await rig.runtime.loop.tick()
    assert second.decisions == []
    [own] = await rig.memory.observations_for_path("knowledge/reply.md")
    assert own.caused_by == first.outcomes[0].execution_id


async def test_a_lasting_failure_retries_then_escalates_with_lessons_and_a_censor(
    rig: Rig,
) -> None:
    (rig.root / "_intake" / "locked.md").write_text("locked\n")
    rig.claude_does(
        is_error=True, subtype="error_during_execution", result="Error: permission denied"
    )
    await rig.observe()
    report = await rig.tick_and_act()
    [decision] = report.decisions
    [outcome] = report.outcomes
    assert not outcome.success and outcome.escalated
    assert outcome.attempts == 3  # process_intake allows two retries
    executions = await rig.rows("audit/executions_for_decision", decision_id=decision.id)
    assert [e["attempt"] for e in executions] == [1, 2, 3]
    assert [e["retry_of_attempt"] for e in executions] == [None, 1, 2]
    assert {e["failure_type"] for e in executions} == {"permission_error"}
    [escalation] = await rig.rows("audit/escalations_for_decision", decision_id=decision.id)
    assert "permission" in escalation["message"].lower()
    lessons = {lesson.type for lesson in await rig.memory.learning.lessons_for(decision.id)}
    assert "permission_failure" in lessons
    censors = await rig.memory.censors.active_censors()
    assert [c.trigger_pattern for c in censors] == ["process_intake on _intake/*.md"]


async def test_a_timeout_leaves_no_child_process(rig: Rig, tmp_path: Path) -> None:
    templates = tmp_path / "templates.yaml"
    shipped = (REPO / "cognition" / "act" / "templates.yaml").read_text()
    templates.write_text(shipped.replace("timeout_seconds: 300", "timeout_seconds: 1"))
    async for quick in _rig(tmp_path / "quick", rig.memory, templates_file=str(templates)):
        (quick.root / "_intake" / "slow.md").write_text("slow\n")
        child = tmp_path / "child.pid"
        quick.claude_does(sleep_s=30, spawn_child_sleep_s=60, child_pid_file=str(child))
        await quick.observe()
        report = await quick.tick_and_act()
        assert all(r.timed_out for r in report.outcomes[0].results)
        assert await gone(int(child.read_text()))


@pytest.mark.parametrize("deliberation", ["stepwise", "single_call"])
async def test_with_an_llm_it_reasons_in_five_recorded_steps(
    tmp_path: Path, memory: Memory, deliberation: str
) -> None:
    def answer(request: RecordedRequest) -> Reply:
        if request.step == "DELIBERATE":  # single_call: the five step objects in one reply
            keys = ["observe", "categorize", "match_pattern", "evaluate", "decide"]
            return Reply.json(dict(zip(keys, STEP_REPLIES.values(), strict=True)))
        return Reply.json(STEP_REPLIES[request.step or ""])

    settings = {"llm.base_url": None, "llm.deliberation": deliberation}
    with LLMStub(default=answer) as stub:
        settings["llm.base_url"] = stub.base_url
        async for rig in _rig(tmp_path, memory, reasoner="llm", **settings):
            (rig.root / "_intake" / "idea.md").write_text("# An idea\n")
            await rig.observe()
            report = await rig.runtime.loop.tick()
            [decision] = report.decisions
            assert decision.reasoner.value == "llm" and decision.model == "stub-model"
            steps = await rig.rows("audit/decision_steps", decision_id=decision.id)
            assert [s["name"] for s in steps] == [
                "OBSERVE", "CATEGORIZE", "MATCH_PATTERN", "EVALUATE", "DECIDE",
            ]  # fmt: skip
            assert {s["reasoner"] for s in steps} == {"llm"}
            assert all(s["tokens"] > 0 and s["latency_ms"] > 0 for s in steps)
            call_ids = [s["call_id"] for s in steps]
            assert None not in call_ids
            if deliberation == "single_call":
                assert len(set(call_ids)) == 1 and len(stub.chat_requests) == 1
            else:
                assert len(set(call_ids)) == 5 and stub.chat_requests[0].step == "OBSERVE"


STEP_REPLIES: dict[str, dict[str, Any]] = {
    "OBSERVE": {
        "brief_summary": "A new note arrived in the intake folder.",
        "key_facts": ["new file", "markdown", "intake"],
        "significance": "high",
        "confidence_delta": 0.1,
    },
    "CATEGORIZE": {
        "primary_intent": "new_content",
        "domain": "content",
        "requires_action": "yes",
        "action_urgency": "soon",
        "confidence_delta": 0.1,
    },
    "MATCH_PATTERN": {
        "matched_pattern": "intake note",
        "recommended_template": "process_intake",
        "past_success_rate": "unknown",
        "pattern_confidence": 0.8,
        "confidence_delta": 0.1,
    },
    "EVALUATE": {
        "options": [],
        "recommended_option": "ACT",
        "reasoning": "A template fits and nothing argues against it.",
        "confidence_delta": 0.1,
    },
    "DECIDE": {"rationale": "Process the intake note.", "investigation_questions": []},
}


DEPLOY_TEMPLATES = REPO / "tests" / "support" / "deploy_templates.yaml"


async def _wait_rig(tmp_path: Path, memory: Memory, **overrides: Any) -> AsyncIterator[Rig]:
    """A loop whose one template could act on config/*.yaml later ("deploy: true")."""
    async for made in _rig(tmp_path, memory, templates_file=str(DEPLOY_TEMPLATES), **overrides):
        yield made


@pytest.fixture
async def wait_rig(tmp_path: Path, memory: Memory) -> AsyncIterator[Rig]:
    async for made in _wait_rig(tmp_path, memory):
        yield made


def configure(rig: Rig, text: str = "level: 1\n") -> str:
    """Write config/app.yaml (a WAIT until it says "deploy: true"); its path."""
    (rig.root / "config").mkdir(exist_ok=True)
    (rig.root / "config" / "app.yaml").write_text(text)
    return "config/app.yaml"


async def test_a_wait_is_decided_again_when_its_file_changes(wait_rig: Rig) -> None:
    rig = wait_rig
    path = configure(rig)
    await rig.observe()
    [first] = (await rig.runtime.loop.tick()).decisions
    assert (first.type.value, first.status, first.path) == ("wait", "waiting", path)
    configure(rig, "level: 2\n")
    await rig.observe()
    [second] = (await rig.runtime.loop.tick()).decisions
    links = await rig.rows("audit/decision_links", decision_id=second.id)
    assert {r["type"]: r["count"] for r in links}["SUPERSEDES"] == 1
    # Only the change since the file's last decision, not its whole history.
    assert {r["type"]: r["count"] for r in links}["CONSIDERED"] == 1
    statuses = {r["id"]: r["status"] for r in await rig.rows("audit/recent_decisions", limit=5)}
    assert statuses[first.id] == "superseded"


async def test_a_wait_looked_at_again_with_nothing_new_ends_without_a_decision(
    wait_rig: Rig,
) -> None:
    rig = wait_rig
    configure(rig)
    await rig.observe()
    [first] = (await rig.runtime.loop.tick()).decisions
    assert (await rig.runtime.loop.tick()).decisions == []  # not due yet
    await rig.runtime.loop.decisions.settle(first.id, wait_until=utc_now())
    assert (await rig.runtime.loop.tick()).decisions == []  # due, nothing new: closed
    statuses = {r["id"]: r["status"] for r in await rig.rows("audit/recent_decisions", limit=5)}
    assert statuses == {first.id: "closed"}
    assert (await rig.runtime.loop.tick()).decisions == []


async def test_investigation_deepens_then_escalates(rig: Rig) -> None:
    failure = Observation(
        agent_id=rig.memory.agent_id,
        type=ObservationType.TASK_FAILED,
        metadata={"error": "nightly import exited 1: file not found"},
    )
    rig.ingestor.submit([failure])
    await rig.ingestor.flush()
    kinds = []
    for _ in range(3):
        [decision] = (await rig.runtime.loop.tick()).decisions
        kinds.append((decision.type.value, decision.status))
        # Nothing new found: taken up again after investigate_delay_s, not at once.
        assert (await rig.runtime.loop.tick()).decisions == []
        await rig.runtime.loop.decisions.settle(decision.id, wait_until=utc_now())
    assert kinds == [
        ("investigate", "investigating"),
        ("investigate", "investigating"),
        ("investigate", "escalated"),
    ]
    [escalation] = await rig.rows("audit/escalations_for_decision", decision_id=decision.id)
    assert "still uncertain after 2 rounds" in escalation["reason"]
    assert (await rig.runtime.loop.tick()).decisions == []


async def test_goals_from_the_settings_are_goal_nodes(tmp_path: Path, memory: Memory) -> None:
    goals = [{"description": "Keep indices in sync", "priority": "high"}]
    async for rig in _rig(tmp_path, memory, goals=goals):
        (rig.root / "_intake" / "idea.md").write_text("# An idea\n")
        await rig.observe()
        [decision] = (await rig.runtime.loop.tick()).decisions
        steps = await rig.rows("audit/decision_steps", decision_id=decision.id)
        assert steps  # the decision was made with the goal in its context
        found = await RecallStore(memory).recall(RecallRequest(limits={"goals": 5}))
        assert [g.description for g in found.goals] == ["Keep indices in sync"]


async def test_files_that_change_together_each_get_their_own_decision(rig: Rig) -> None:
    (rig.root / "_intake" / "a.md").write_text("a\n")
    (rig.root / "config").mkdir()
    (rig.root / "config" / "app.yaml").write_text("level: 1\n")
    (rig.root / "notes.md").write_text("notes\n")
    await rig.observe()
    report = await rig.runtime.loop.tick()
    assert sorted(d.path or "" for d in report.decisions) == [
        "_intake/a.md",
        "config/app.yaml",
        "notes.md",
    ]
    # Every file's observation was considered. (The intake action runs as a task of its own;
    # if it fails before this line, its task_failed observation is new and unprocessed.)
    left = await rig.runtime.loop.decisions.unprocessed_observations(10)
    assert [o.path for o in left if o.type.value != "task_failed"] == []


async def test_a_block_censor_stops_the_action_and_escalates(rig: Rig) -> None:
    book = rig.runtime.loop.censors
    for _ in range(2):  # filed at warn, blocks when it fires again
        await book.record_failure("process_intake on _intake/*.md", reason="permission denied")
    (rig.root / "_intake" / "again.md").write_text("again\n")
    rig.claude_does(result="created something")
    await rig.observe()
    report = await rig.runtime.loop.tick()
    [decision] = report.decisions
    assert decision.type.value == "escalate" and report.outcomes == []
    assert "blocked by censor" in decision.reasoning
    assert not rig.log.exists()  # the stand-in never ran


async def test_a_change_nothing_could_act_on_is_settled_in_one_step(rig: Rig) -> None:
    (rig.root / "config").mkdir()
    (rig.root / "config" / "app.yaml").write_text("level: 1\n")
    await rig.observe()
    [decision] = (await rig.runtime.loop.tick()).decisions
    assert (decision.type.value, decision.status, decision.wait_until) == ("wait", "closed", None)
    assert "no loaded template could act" in (decision.outcome or "")
    assert (await rig.runtime.loop.tick()).decisions == []
    for level in (2, 3):  # later changes nothing could act on either: no new decision
        (rig.root / "config" / "app.yaml").write_text(f"level: {level}\n")
        await rig.observe()
        assert (await rig.runtime.loop.tick()).decisions == []
    # Settled by the file's one decision, which now considered all three changes.
    links = await rig.rows("audit/decision_links", decision_id=decision.id)
    assert {r["type"]: r["count"] for r in links}["CONSIDERED"] == 3
    assert await rig.runtime.loop.decisions.unprocessed_observations(10) == []
    [row] = await rig.rows("audit/decision", decision_id=decision.id)
    assert row["decision"]["folded_changes"] == 2
