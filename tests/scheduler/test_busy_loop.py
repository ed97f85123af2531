"""Changes while a run is in flight, in the real loop: queue, restart or ignore (``on_busy``).

A command template whose run takes a while (this interpreter sleeping), the
decision loop as the daemon builds it, a settle window of 0.2 s: one change
starts a run; ten files saved while it runs are one more run after it
(queue), stop it and run again at once (restart), or join it (ignore).
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from cognition.act.busy import RESTARTED
from graph.store.memory import Memory
from tests.support.loop_rig import LoopRig, loop_rig, loop_settings

REPO = Path(__file__).resolve().parents[2]
SETTLE_S = 0.2
TEMPLATES = """
templates:
  run_suite:
    version: 1
    title: Run the suite
    trigger: {{observation_types: [file_created, file_modified], path_patterns: ["src/**"]}}
    target: command
    command: ["{python}", "-c", "import time; time.sleep({sleep})"]
    on_busy: {on_busy}
    prompt_template: "Code changed: {{{{ path }}}}"
    parameters: {{path: {{type: path, required: true}}}}
    timeout_seconds: 60
    max_retries: 0
"""


async def _decide_settled(rig: LoopRig) -> list[Any]:
    await rig.observe()
    await asyncio.sleep(SETTLE_S + 0.1)
    return (await rig.runtime.loop.tick()).decisions


@pytest.mark.parametrize("on_busy", ["queue", "restart", "ignore"])
async def test_ten_files_saved_during_a_run(tmp_path: Path, memory: Memory, on_busy: str) -> None:
    root = tmp_path / "root"
    (root / "src").mkdir(parents=True)
    sleep = 1.5
    templates = tmp_path / "templates.yaml"
    templates.write_text(TEMPLATES.format(python=sys.executable, sleep=sleep, on_busy=on_busy))
    overrides = {"templates_file": str(templates), "schedule.burst_settle_s": SETTLE_S}
    settings = loop_settings(root, REPO / "tests" / "bin" / "claude", **overrides)
    env = {"PATH": os.environ.get("PATH", "")}
    async with loop_rig(settings, memory, root, env, grace_s=0.1) as rig:
        loop = rig.runtime.loop
        (root / "src" / "first.py").write_text("first = 1\n")
        [first] = await _decide_settled(rig)
        assert loop.busy.running() == {"run_suite": first}

        for n in range(10):  # saved while the run goes on
            (root / "src" / f"m{n}.py").write_text(f"m = {n}\n")
        during = await _decide_settled(rig)
        if on_busy == "restart":
            [second] = during  # the run restarted at once
            stopped = await memory.audit.decision_story(first.id, [])
            assert stopped is not None
            assert stopped.decision.status.value == "closed"
            assert stopped.decision.outcome == RESTARTED
            [attempt] = stopped.executions
            assert attempt.failure_type == "interrupted" and attempt.ended_at is not None
        else:
            assert during == []  # queued (one more run later) or ignored (none)
        assert await loop.idle(30)
        after = (await loop.tick()).decisions
        assert await loop.idle(30)
        if on_busy == "queue":
            [second] = after  # one more run, for everything that arrived
        else:
            assert after == []
        if on_busy == "ignore":
            story = await memory.audit.decision_story(first.id, [])
            assert story is not None and len(story.observations) == 11  # joined the run
            assert story.decision.status.value == "done"
            return
        story = await memory.audit.decision_story(second.id, [])
        assert story is not None
        assert {o.path for o in story.observations} == {f"src/m{n}.py" for n in range(10)}
        assert story.decision.status.value == "done"
        assert len(story.executions) == 1
        assert (await loop.tick()).decisions == []  # never more than one waiting
