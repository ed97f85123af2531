"""The daemon's ``claude_code`` executor on the real Claude Code CLI, with a scripted model.

The loop is the scheduler's own (``build_loop``) on a temporary root, as in
``tests/scheduler/test_loop.py``, but the executor runs the real CLI: the
model answers the ``process_intake`` action with a ``Write`` call, and the
CLI really writes the file.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from graph.settings import WatchSettings
from graph.store.memory import Memory
from graph.watch.watcher import FileWatcher
from scheduler.jobs import StatusLine, watch_into
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.eventually import eventually
from tests.support.loop_rig import LoopRig, loop_rig, loop_settings


@pytest.fixture
async def daemon(
    tmp_path: Path, memory: Memory, claude_bin: Path, cli_env: dict[str, str]
) -> AsyncIterator[LoopRig]:
    root = tmp_path / "root"
    (root / "_intake").mkdir(parents=True)
    settings = loop_settings(root, claude_bin)
    # CLAUDECODE is removed by the executor, or the CLI refuses to run.
    env = {**cli_env, "CLAUDECODE": "1"}
    async with loop_rig(settings, memory, root, env, grace_s=2.0) as rig:
        yield rig


async def test_an_intake_action_writes_through_the_real_cli_as_the_execution(
    daemon: LoopRig, model: AnthropicStub
) -> None:
    (daemon.root / "_intake" / "idea.md").write_text("# An idea\nworth keeping\n")
    filed = daemon.root / "knowledge" / "idea.md"
    model.script(
        ModelTurn.tool("Write", {"file_path": str(filed), "content": "# Idea, filed\n"}),
        ModelTurn.text("Filed knowledge/idea.md."),
    )
    await daemon.observe()
    watcher = FileWatcher(daemon.root, WatchSettings(debounce_ms=100), daemon.memory.agent_id)
    stop = asyncio.Event()
    status = StatusLine(daemon.ingestor, daemon.index_sync, out=io.StringIO())
    watching = asyncio.create_task(watch_into(watcher, daemon.ingestor, stop, status))
    try:
        await asyncio.wait_for(watcher.ready.wait(), 30)
        report = await daemon.tick_and_act(600)

        async def filed_recorded() -> bool:
            await daemon.ingestor.flush()
            return bool(await daemon.memory.observations_for_path("knowledge/idea.md"))

        await eventually(filed_recorded, "the CLI's edit observed", timeout_s=60)
    finally:
        stop.set()
        await watching

    [decision] = report.decisions
    assert decision.template == "process_intake"
    [outcome] = report.outcomes
    assert outcome.success and outcome.attempts == 1
    assert filed.read_text() == "# Idea, filed\n"
    [result] = outcome.results
    assert result.session_id == outcome.execution_id, "--session-id is the Execution's id"
    asked = model.conversation
    assert asked and asked[0].headers.get("x-claude-code-session-id") == outcome.execution_id
    assert "_intake/idea.md" in asked[0].text(), "the template's prompt reached the model"
    [own] = await daemon.memory.observations_for_path("knowledge/idea.md")
    assert own.caused_by == outcome.execution_id, "the CLI's edit is the execution's own"
    assert (await daemon.runtime.loop.tick()).decisions == [], "an own edit starts nothing"


async def test_an_error_result_from_the_real_cli_takes_the_retry_path(
    daemon: LoopRig, model: AnthropicStub
) -> None:
    (daemon.root / "_intake" / "locked.md").write_text("locked\n")
    model.default = ModelTurn.error(400, "permission denied for this workspace")
    await daemon.observe()
    report = await daemon.tick_and_act(600)

    [outcome] = report.outcomes
    assert not outcome.success
    assert outcome.attempts == 3, "process_intake allows two retries"
    executions = await daemon.memory.read(
        "audit/executions_for_decision", decision_id=report.decisions[0].id
    )
    assert [e["attempt"] for e in executions] == [1, 2, 3]
    assert [e["retry_of_attempt"] for e in executions] == [None, 1, 2]
    assert all(e["success"] is False for e in executions)
    assert all("Claude Code" in (e["error"] or "") for e in executions)
    # Each attempt ran as its own session, named by its Execution's id.
    assert [r.session_id for r in outcome.results] == [e["id"] for e in executions]
    prompts = [r.text() for r in model.conversation]
    assert any("Retry 1 of" in p for p in prompts), "the retry's refined prompt reached the model"
