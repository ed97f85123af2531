"""Issue 28: quiet when nothing can act, and a dry run never learns, on every path.

The scheduler's own ``build_loop`` on a temporary root, real Neo4j, the rules reasoner.
``wait_rig``'s one template (``deploy_config``) could act on ``config/*.yaml`` once the file
says "deploy: true", so a change to ``config/app.yaml`` without it is a WAIT with a chain;
a file no template could act on is settled in one step.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from graph.models import Observation, ObservationType, utc_now
from graph.store.audit import AuditStore
from graph.store.memory import Memory
from scheduler.jobs import StatusLine
from scheduler.story import render as render_why
from tests.scheduler.test_loop import Rig, _rig, _wait_rig, configure

DRY = {"executors.dry_run": True}


@pytest.fixture
async def wait_rig(tmp_path: Path, memory: Memory) -> AsyncIterator[Rig]:
    async for made in _wait_rig(tmp_path, memory):
        yield made


@pytest.fixture
async def dry_wait_rig(tmp_path: Path, memory: Memory) -> AsyncIterator[Rig]:
    async for made in _wait_rig(tmp_path, memory, **DRY):
        yield made


@pytest.fixture
async def rig(tmp_path: Path, memory: Memory) -> AsyncIterator[Rig]:
    async for made in _rig(tmp_path, memory):
        yield made


@pytest.fixture
async def dry_rig(tmp_path: Path, memory: Memory) -> AsyncIterator[Rig]:
    async for made in _rig(tmp_path, memory, **DRY):
        yield made


async def _considered(rig: Rig, decision_ids: list[str]) -> int:
    total = 0
    for decision_id in decision_ids:
        links = await rig.rows("audit/decision_links", decision_id=decision_id)
        total += {r["type"]: r["count"] for r in links}.get("CONSIDERED", 0)
    return total


async def _an_hour_passes(rig: Rig) -> None:
    """Every open WAIT or INVESTIGATE due within the next hour becomes due now."""
    store = rig.runtime.loop.decisions
    for open_ in await store.waiting_decisions(utc_now() + timedelta(hours=1), []):
        await store.settle(open_.decision.id, wait_until=utc_now())


async def _nothing_learned(memory: Memory, *keys: str | None) -> None:
    for key in keys:
        pattern = await memory.learning.pattern(key or "")
        assert pattern is None or pattern.total == 0, (key, pattern)
    buckets = await AuditStore(memory).calibration()
    assert sum(b.count for b in buckets) == 0, buckets


# --- quiet when nothing can act ---------------------------------------------------


async def test_a_folder_with_nothing_changing_for_an_hour_makes_no_new_decision(
    wait_rig: Rig,
) -> None:
    rig = wait_rig
    configure(rig)  # could be acted on later: a WAIT
    (rig.root / "notes.md").write_text("notes\n")  # nothing could: settled at once
    await rig.observe()
    first = (await rig.runtime.loop.tick()).decisions
    assert sorted((d.path, d.status.value) for d in first) == [
        ("config/app.yaml", "waiting"),
        ("notes.md", "closed"),
    ]
    later: list[Any] = []
    for _ in range(12):  # twelve looks, five minutes apart, at short intervals
        await _an_hour_passes(rig)
        later.extend((await rig.runtime.loop.tick()).decisions)
    assert later == []
    rows = await rig.rows("audit/recent_decisions", limit=10)
    assert sorted(r["status"] for r in rows) == ["closed", "closed"]


async def test_a_catching_up_backlog_opens_one_chain_per_file(wait_rig: Rig) -> None:
    rig = wait_rig
    configure(rig)
    await rig.observe()
    [change] = await rig.runtime.loop.decisions.unprocessed_observations(10)
    start = change.at
    # After an outage: the same file changed again later, with another file's change between,
    # so seed 000's batcher puts the file's two changes in two batches.
    other = change.model_copy(
        update={"id": "other-change", "path": "notes.md", "at": start + timedelta(seconds=10)}
    )
    again = change.model_copy(
        update={
            "id": "again",
            "type": ObservationType.FILE_MODIFIED,
            "at": start + timedelta(seconds=20),
        }
    )
    rig.ingestor.submit([other, again])
    await rig.ingestor.flush()
    report = await rig.runtime.loop.tick()
    on_config = [d for d in report.decisions if d.path == "config/app.yaml"]
    assert len(on_config) == 1, [(d.id, d.status) for d in on_config]
    assert await _considered(rig, [on_config[0].id]) == 2
    waiting = await rig.runtime.loop.decisions.waiting_decisions(utc_now() + timedelta(days=1), [])
    assert [o.decision.path for o in waiting] == ["config/app.yaml"]


async def test_a_file_changed_ten_times_is_considered_once_per_change(wait_rig: Rig) -> None:
    rig = wait_rig
    ids = []
    for n in range(10):
        configure(rig, f"level: {n}\n")
        await rig.observe()
        ids.extend(d.id for d in (await rig.runtime.loop.tick()).decisions)
    assert len(ids) == 10
    assert await _considered(rig, ids) == 10  # not 1 + 2 + ... + 10


async def test_a_chains_intent_is_its_latest_change(wait_rig: Rig) -> None:
    rig = wait_rig
    configure(rig)
    await rig.observe()
    await rig.runtime.loop.tick()
    configure(rig, "level: 2\n")
    await rig.observe()
    [again] = (await rig.runtime.loop.tick()).decisions
    steps = await rig.rows("audit/decision_steps", decision_id=again.id)
    [categorize] = [s for s in steps if s["name"] == "CATEGORIZE"]
    assert "update" in categorize["output"] and "new_content" not in categorize["output"]


# --- a dry run never learns, on every path ----------------------------------------


async def test_a_dry_run_closing_a_wait_learns_nothing(dry_wait_rig: Rig) -> None:
    rig = dry_wait_rig
    configure(rig)
    await rig.observe()
    [wait] = (await rig.runtime.loop.tick()).decisions
    for _ in range(5):  # until the chain is closed, however many looks that takes
        statuses = {r["status"] for r in await rig.rows("audit/recent_decisions", limit=10)}
        if statuses <= {"closed", "superseded"}:
            break
        await _an_hour_passes(rig)
        await rig.runtime.loop.tick()
    assert statuses <= {"closed", "superseded"}
    await _nothing_learned(rig.memory, wait.pattern_key)


async def test_a_dry_run_escalation_learns_nothing(dry_rig: Rig) -> None:
    rig = dry_rig
    # A critical failure that says no error: nothing can handle it, so it is escalated.
    rig.ingestor.submit(
        [Observation(agent_id=rig.memory.agent_id, type=ObservationType.TASK_FAILED)]
    )
    await rig.ingestor.flush()
    [decision] = (await rig.runtime.loop.tick()).decisions
    assert (decision.type.value, decision.status.value) == ("escalate", "escalated")
    await _nothing_learned(rig.memory, decision.pattern_key)


async def test_a_dry_run_investigation_learns_nothing(dry_rig: Rig) -> None:
    rig = dry_rig
    failure = Observation(
        agent_id=rig.memory.agent_id,
        type=ObservationType.TASK_FAILED,
        metadata={"error": "nightly import exited 1: file not found"},
    )
    rig.ingestor.submit([failure])
    await rig.ingestor.flush()
    keys = []
    for _ in range(3):  # investigate, investigate, escalate
        [decision] = (await rig.runtime.loop.tick()).decisions
        keys.append(decision.pattern_key)
        await rig.runtime.loop.decisions.settle(decision.id, wait_until=utc_now())
    assert decision.status.value == "escalated"
    await _nothing_learned(rig.memory, *keys)


# --- a truthful console -----------------------------------------------------------


async def test_why_says_a_dry_run_action_was_not_executed(dry_rig: Rig) -> None:
    rig = dry_rig
    (rig.root / "_intake" / "idea.md").write_text("# An idea\n")
    await rig.observe()
    report = await rig.tick_and_act()
    [decision] = report.decisions
    assert decision.type.value == "act" and report.outcomes[0].dry_run
    story = await AuditStore(rig.memory).decision_story(decision.id, [])
    assert story is not None
    text = render_why(story)
    [attempt] = [line for line in text.splitlines() if "attempt 1" in line]
    assert "dry run: not executed" in attempt and "succeeded" not in attempt


async def test_the_status_line_is_one_line_whatever_the_error(rig: Rig) -> None:
    # What the writer records of a Neo4j outage: a driver error over several long lines.
    error = "Couldn't connect to localhost:7687\n" + "\n".join(
        f"  Failed to establish connection to ResolvedIPv4Address(('127.0.0.1', 7687)) {n}"
        for n in range(8)
    )
    rig.ingestor.stats.last_error = error
    out = io.StringIO()
    status = StatusLine(rig.ingestor, rig.index_sync, out=out)
    await status.emit()
    printed = out.getvalue()
    assert printed.count("\n") == 1 and printed.endswith("\n")
    assert "last error: Couldn't connect to localhost:7687 Failed" in printed
    assert len(printed) < 400 and printed.rstrip().endswith("…")
