"""Issue 6: no learning from dry runs, critical first, actions beside deciding, INVESTIGATE that
investigates, templates that can run, success criteria checked, true text, patterns for all.

Same rig as ``test_loop``: the scheduler's own ``build_loop`` on a temporary root, real Neo4j,
the stand-in ``claude``, the rules reasoner (or the stub LLM).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from graph.models import Fact, Observation, ObservationType, Urgency, new_id, utc_now
from graph.store.memory import Memory
from tests.scheduler.test_loop import STEP_REPLIES, Rig, _rig, _wait_rig, configure
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply
from tests.support.processes import gone

INTAKE_PATTERN = "intake:file_created:act:process_intake"


async def _eventually(check: Any, within_s: float = 20.0) -> Any:
    """Poll ``check`` (plain or async) until it gives something true; that value."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"not true within {within_s} s")


@pytest.fixture
async def rig(tmp_path: Path, memory: Memory) -> AsyncIterator[Rig]:
    async for made in _rig(tmp_path, memory):
        yield made


@pytest.fixture
async def other_memory(memory: Memory) -> AsyncIterator[Memory]:
    """A second, clean agent on the same Neo4j."""
    clean = Memory(memory.driver, f"clean-{new_id()}")
    try:
        yield clean
    finally:
        await clean.forget()


# --- 1. a dry run teaches nothing -------------------------------------------------


async def test_twenty_dry_run_successes_leave_live_confidence_where_a_clean_memory_has_it(
    tmp_path: Path, memory: Memory, other_memory: Memory
) -> None:
    dry_run = {
        "executors.dry_run": True,
        "budget.max_concurrent": 20,
        "budget.actions_per_hour": 100,
    }
    async for dry in _rig(tmp_path / "dry", memory, **dry_run):
        for n in range(20):
            (dry.root / "_intake" / f"note{n}.md").write_text(f"note {n}\n")
        await dry.observe()
        report = await dry.tick_and_act()
        assert len(report.outcomes) == 20 and all(o.success for o in report.outcomes)
        pattern = await memory.learning.pattern(INTAKE_PATTERN)
        assert pattern is None or pattern.total == 0
        assert await memory.learning.lessons_for(report.decisions[0].id) == []
        executions = await dry.rows(
            "audit/executions_for_decision", decision_id=report.decisions[0].id
        )
        assert executions[0]["dry_run"] is True

    confidences = []
    # The live rig works on the dry rig's root (its notes are no news); the clean one on its own.
    for mem, where in ((memory, "dry"), (other_memory, "clean")):
        async for live in _rig(tmp_path / where, mem):
            (live.root / "_intake" / "real.md").write_text("a real note\n")
            live.claude_does(edits=[{"path": "knowledge/real.md", "content": "filed\n"}])
            await live.observe()
            [decision] = (await live.tick_and_act()).decisions
            confidences.append(decision.confidence)
    assert confidences[0] == confidences[1]


# --- 2. deciding and acting side by side; critical first ---------------------------


async def test_a_30_s_action_does_not_stop_deciding(rig: Rig) -> None:
    (rig.root / "notes").mkdir()
    (rig.root / "notes" / "old.md").write_text("old\n")
    await rig.observe()
    await rig.runtime.loop.tick()  # the existing file is decided on and out of the way
    (rig.root / "_intake" / "first.md").write_text("first\n")
    rig.claude_does(sleep_s=30)
    await rig.observe()
    [first] = (await rig.runtime.loop.tick()).decisions
    assert first.type.value == "act"
    started = await _eventually(lambda: _log_lines(rig.log))
    (rig.root / "_intake" / "second.md").write_text("second\n")
    (rig.root / "notes" / "old.md").unlink()
    await rig.observe()
    report = await rig.runtime.loop.tick()
    # The new intake file is decided on while the first action runs; the deletion of
    # notes/old.md, which no template could act on either, is settled by that file's
    # settled decision (no decision of its own), in the same tick.
    assert [d.path for d in report.decisions] == ["_intake/second.md"]
    assert await rig.runtime.loop.decisions.unprocessed_observations(10) == []
    executions = await rig.rows("audit/executions_for_decision", decision_id=first.id)
    assert executions[0]["ended_at"] is None  # the first action still runs
    assert all(d.at < utc_now() for d in report.decisions)
    assert len(rig.runtime.loop.actions) >= 1
    await rig.runtime.loop.stop(0.1)
    assert await gone(started[0]["pid"])


async def test_the_whole_backlog_is_taken_critical_first(rig: Rig) -> None:
    routine = [
        Observation(agent_id=rig.memory.agent_id, type=ObservationType.TIME_ELAPSED)
        for _ in range(5)
    ]
    critical = Observation(
        agent_id=rig.memory.agent_id,
        type=ObservationType.PROCESS_FAILED,
        urgency=Urgency.CRITICAL,
        metadata={"error": "disk full"},
    )
    await rig.memory.record_observations(routine)
    await rig.memory.record_observations([critical])  # newest of all
    first = await rig.runtime.loop.decisions.unprocessed_observations(3)
    assert first[0].id == critical.id


async def test_sigterm_gives_every_running_action_the_grace_then_kills_it(
    tmp_path: Path, memory: Memory
) -> None:
    async for rig in _rig(tmp_path, memory, **{"budget.max_concurrent": 2}):
        for name in ("a", "b"):
            (rig.root / "_intake" / f"{name}.md").write_text(f"{name}\n")
        rig.claude_does(sleep_s=60, ignore_sigterm=True)
        await rig.observe()
        await rig.runtime.loop.tick()
        runs = await _eventually(functools.partial(_two_runs, rig.log))
        assert len(rig.runtime.loop.actions) == 2
        began = time.monotonic()
        await rig.runtime.loop.stop(0.5)
        assert time.monotonic() - began >= 0.5  # the grace was given
        for run in runs:
            assert await gone(run["pid"])


# --- 3. INVESTIGATE asks its questions -------------------------------------------


async def test_investigation_asks_its_questions_and_redecides_on_what_it_found(
    rig: Rig,
) -> None:
    # Found only by the questions ("caused", "still failing"), not by the observation's text.
    fact = "Still failing since the mount moved; caused by a full disk."
    await rig.memory.episodes.add_fact(Fact(agent_id=rig.memory.agent_id, content=fact))
    await rig.memory.await_text_indexes()
    failure = Observation(
        agent_id=rig.memory.agent_id,
        type=ObservationType.TASK_FAILED,
        metadata={"error": "nightly import exited 1"},
    )
    rig.ingestor.submit([failure])
    await rig.ingestor.flush()
    [first] = (await rig.runtime.loop.tick()).decisions
    assert (first.type.value, first.status) == ("investigate", "investigating")
    assert any("still failing" in q for q in first.investigation_questions)
    # Something new was found: decided again at once, not after investigate_delay_s.
    [second] = (await rig.runtime.loop.tick()).decisions
    steps = await rig.rows("audit/decision_steps", decision_id=second.id)
    assert [s["name"] for s in steps][:2] == ["INVESTIGATE", "OBSERVE"]
    output = steps[0]["output"]
    found = json.loads(output) if isinstance(output, str) else dict(output)
    assert any("Still failing since the mount moved" in line for line in found["findings"])
    assert found["questions"] == first.investigation_questions


# --- 4. templates that can run ------------------------------------------------------


async def test_a_new_thinker_note_runs_create_thinker_with_its_slug(rig: Rig) -> None:
    (rig.root / "_intake" / "ada.md").write_text("new thinker: Ada Lovelace\n")
    rig.claude_does(
        edits=[
            {"path": "knowledge/thinkers/ada_lovelace/thinker_profile.md", "content": "# Ada\n"},
            {"path": "indices/thinkers.yaml", "content": "thinkers: [ada_lovelace]\n"},
        ]
    )
    await rig.observe()
    report = await rig.tick_and_act()
    [decision] = report.decisions
    assert (decision.type.value, decision.template) == ("act", "create_thinker")
    [outcome] = report.outcomes
    assert outcome.success, outcome.error
    [run] = _log_lines(rig.log)
    prompt = run["argv"][run["argv"].index("-p") + 1]
    assert "knowledge/thinkers/ada_lovelace/" in prompt and "Ada Lovelace" in prompt


async def test_a_failed_action_is_observed_as_task_failed(rig: Rig) -> None:
    (rig.root / "_intake" / "bad.md").write_text("bad\n")
    rig.claude_does(is_error=True, result="Error: permission denied")
    await rig.observe()
    [decision] = (await rig.tick_and_act()).decisions
    [failed] = [
        o
        for o in await rig.runtime.loop.decisions.unprocessed_observations(10)
        if o.type is ObservationType.TASK_FAILED
    ]
    assert failed.metadata["decision_id"] == decision.id
    assert failed.metadata["error_count"] == 1 and failed.metadata["max_attempts"] == 3
    options = rig.runtime.loop.recall.templates_for(failed, None)
    assert [t.name for t in options] == ["handle_failure"]


# --- 5. success criteria -----------------------------------------------------------


async def test_a_run_that_changes_nothing_fails_validation_retries_then_escalates(
    rig: Rig,
) -> None:
    (rig.root / "_intake" / "idle.md").write_text("idle\n")
    rig.claude_does(result="created everything")  # says so, does nothing
    await rig.observe()
    report = await rig.tick_and_act()
    [decision] = report.decisions
    [outcome] = report.outcomes
    assert not outcome.success and outcome.escalated and outcome.attempts == 3
    executions = await rig.rows("audit/executions_for_decision", decision_id=decision.id)
    assert [e["validation_passed"] for e in executions] == [False, False, False]
    assert {e["failure_type"] for e in executions} == {"validation_failure"}
    pattern = await rig.memory.learning.pattern(INTAKE_PATTERN)
    assert pattern is not None and (pattern.total, pattern.successes) == (1, 0)


# --- 6. true text -------------------------------------------------------------------


async def test_retry_prompts_count_against_the_templates_max_retries(rig: Rig) -> None:
    (rig.root / "_intake" / "locked.md").write_text("locked\n")
    rig.claude_does(is_error=True, result="Error: permission denied")
    await rig.observe()
    await rig.tick_and_act()
    prompts = [r["argv"][r["argv"].index("-p") + 1] for r in _log_lines(rig.log)]
    assert "## Retry 1 of 2" in prompts[1] and "## Retry 2 of 2" in prompts[2]
    assert "of 3" not in "".join(prompts)


async def test_a_low_confidence_escalation_says_so_and_is_logged(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    # A critical failure that says no error: handle_failure cannot be filled, so no template
    # is offered, and the confidence falls below the escalate threshold.
    rig.ingestor.submit(
        [Observation(agent_id=rig.memory.agent_id, type=ObservationType.TASK_FAILED)]
    )
    await rig.ingestor.flush()
    with caplog.at_level(logging.WARNING):
        [decision] = (await rig.runtime.loop.tick()).decisions
    assert decision.type.value == "escalate", decision.reasoning
    [escalation] = await rig.rows("audit/escalations_for_decision", decision_id=decision.id)
    message = escalation["message"]
    assert "did not act" in message and "attempted this task 0 times" not in message
    assert f"{decision.confidence:.2f}" in message and "escalate below" in message
    assert any(
        decision.id in r.getMessage() and "cypher-shell" in r.getMessage() for r in caplog.records
    )


# --- 7. patterns for every decision type --------------------------------------------


async def test_wait_and_investigate_count_in_their_patterns(tmp_path: Path, memory: Memory) -> None:
    async for rig in _wait_rig(tmp_path, memory):
        configure(rig)
        await rig.observe()
        [first] = (await rig.runtime.loop.tick()).decisions
        configure(rig, "level: 2\n")
        await rig.observe()
        [wait] = (await rig.runtime.loop.tick()).decisions
        assert (first.type.value, wait.type.value, wait.status) == ("wait", "wait", "waiting")
        await rig.runtime.loop.decisions.settle(wait.id, wait_until=utc_now())
        assert (await rig.runtime.loop.tick()).decisions == []  # nothing new: closed
        # The closed WAIT (a modification) and the one it superseded (a creation): waiting
        # was right each time.
        assert first.pattern_key != wait.pattern_key
        for key in (first.pattern_key, wait.pattern_key):
            pattern = await rig.memory.learning.pattern(key or "")
            assert pattern is not None and (pattern.total, pattern.successes) == (1, 1), key


def _two_runs(log: Path) -> list[dict[str, Any]]:
    runs = _log_lines(log)
    return runs if len(runs) == 2 else []


def _log_lines(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


async def test_the_llm_fills_parameters_checked_against_the_template(
    tmp_path: Path, memory: Memory
) -> None:
    replies = {
        **STEP_REPLIES,
        "MATCH_PATTERN": {
            **STEP_REPLIES["MATCH_PATTERN"],
            "recommended_template": "create_thinker",
        },
        "DECIDE": {
            "rationale": "A profile was asked for.",
            "investigation_questions": [],
            # One undeclared parameter, dropped; the rest typed as the template says.
            "parameters": {"thinker_name": "Hypatia", "thinker_slug": "hypatia", "shell": "rm"},
        },
    }

    def answer(request: RecordedRequest) -> Reply:
        return Reply.json(replies[request.step or ""])

    with LLMStub(default=answer) as stub:
        # Stepwise: the stub answers each step by its name.
        settings = {
            "reasoner": "llm",
            "llm.base_url": stub.base_url,
            "llm.deliberation": "stepwise",
        }
        async for rig in _rig(tmp_path, memory, **settings):
            (rig.root / "_intake" / "who.md").write_text(
                "create profile for\n(the one in Alexandria)\n"
            )
            await rig.observe()
            [decision] = (await rig.tick_and_act()).decisions
            assert (decision.type.value, decision.template) == ("act", "create_thinker")
            decide_prompt = next(r for r in stub.chat_requests if r.step == "DECIDE")
            assert "thinker_name" in str(decide_prompt.messages)
            [run, *_] = _log_lines(rig.log)
            prompt = run["argv"][run["argv"].index("-p") + 1]
            assert "knowledge/thinkers/hypatia/" in prompt and "rm" not in prompt.split()


async def test_with_an_llm_the_questions_are_answered_from_the_findings(
    tmp_path: Path, memory: Memory
) -> None:
    unsure = {step: {**reply, "confidence_delta": 0.0} for step, reply in STEP_REPLIES.items()}
    replies = {
        **unsure,
        "MATCH_PATTERN": {**unsure["MATCH_PATTERN"], "recommended_template": None},
        "EVALUATE": {**unsure["EVALUATE"], "recommended_option": "INVESTIGATE"},
        "DECIDE": {
            "rationale": "Not sure what this note is for.",
            "investigation_questions": ["Who asked for the mount to be moved?"],
        },
        "INVESTIGATE": {"answers": ["The admins moved the mount last week."]},
    }

    def answer(request: RecordedRequest) -> Reply:
        return Reply.json(replies[request.step or ""])

    fact = "The admins moved the mount last week."
    await memory.episodes.add_fact(Fact(agent_id=memory.agent_id, content=fact))
    await memory.await_text_indexes()
    with LLMStub(default=answer) as stub:
        # Stepwise: the stub answers each step by its name.
        settings = {
            "reasoner": "llm",
            "llm.base_url": stub.base_url,
            "llm.deliberation": "stepwise",
        }
        async for rig in _rig(tmp_path, memory, **settings):
            (rig.root / "notes.md").write_text("something about a mount\n")
            await rig.observe()
            [first] = (await rig.runtime.loop.tick()).decisions
            assert first.type.value == "investigate", first.reasoning
            assert any(r.step == "INVESTIGATE" for r in stub.chat_requests)
            [second] = (await rig.runtime.loop.tick()).decisions  # found something new
            steps = await rig.rows("audit/decision_steps", decision_id=second.id)
            assert (steps[0]["name"], steps[0]["reasoner"]) == ("INVESTIGATE", "llm")
            output = steps[0]["output"]
            found = json.loads(output) if isinstance(output, str) else dict(output)
            assert found["answers"] == ["The admins moved the mount last week."]
