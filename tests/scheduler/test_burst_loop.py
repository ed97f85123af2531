"""A burst is one run, in the real loop: ten files saved at once, one decision, one execution.

A small Python repository, the pack ``nous templates init`` picks, the
decision loop as the daemon builds it (dry run), a settle window of 1 s:
ten code files saved at once are held while the burst is fresh, then decided
once, and the one run's record names all ten; ten test files saved at once
are one run of the test command with all ten paths.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from cognition.loop import TickReport
from graph.store.memory import Memory
from scheduler.cli import main
from tests.support.loop_rig import LoopRig, loop_rig, loop_settings
from tests.support.packs import make_tree

REPO = Path(__file__).resolve().parents[2]
EMPTY = REPO / "tests" / "support" / "empty.yaml"
SETTLE_S = 1.0  # long enough that a loaded machine still ticks inside it


def _repository(root: Path) -> Path:
    files = {"pyproject.toml": "[project]\nname = 'tiny'\n", "tiny/__init__.py": ""}
    files |= {f"tiny/m{n}.py": f"VALUE = {n}\n" for n in range(10)}
    files |= {f"tests/test_m{n}.py": f"def test_{n}():\n    pass\n" for n in range(10)}
    return make_tree(root, files)


async def _settled_tick(rig: LoopRig) -> TickReport:
    """Tick while the burst is fresh (nothing decided), then once it has settled."""
    await rig.observe()
    early = await rig.tick_and_act()
    assert early.decisions == [], [
        (d.path, d.type, d.template, d.reasoning[-200:]) for d in early.decisions
    ]  # held
    await asyncio.sleep(SETTLE_S + 0.1)
    return await rig.tick_and_act()


async def test_ten_files_saved_at_once_are_one_run(tmp_path: Path, memory: Memory) -> None:
    root = _repository(tmp_path / "tiny")
    assert main(["templates", "init", "--root", str(root), "--config", str(EMPTY)]) == 0
    overrides = {"executors.dry_run": True, "schedule.burst_settle_s": SETTLE_S}
    settings = loop_settings(root, REPO / "tests" / "bin" / "claude", **overrides)
    env = {"PATH": os.environ.get("PATH", "")}
    async with loop_rig(settings, memory, root, env, grace_s=0.5) as rig:
        await rig.observe()  # the baseline is not needed: the first look observes all
        await asyncio.sleep(SETTLE_S + 0.1)
        await rig.tick_and_act()

        code = [f"tiny/m{n}.py" for n in range(10)]
        for n, path in enumerate(code):
            (root / path).write_text(f"VALUE = {n + 100}\n")
        report = await _settled_tick(rig)
        [decision] = report.decisions
        assert decision.template == "run_tests_for_changed_code"
        assert [len(o.results) for o in report.outcomes] == [1]  # one run
        story = await memory.audit.decision_story(decision.id, [])
        assert story is not None
        [execution] = story.executions
        assert execution.dry_run is True
        assert {o.path for o in story.observations} == set(code)
        assert f"One run for 10 files changed together: {decision.path}" in (
            story.decision.prompt or ""
        )

        tests = [f"tests/test_m{n}.py" for n in range(10)]
        for n, path in enumerate(tests):
            (root / path).write_text(f"def test_{n}():\n    assert True\n")
        report = await _settled_tick(rig)
        [decision] = report.decisions
        assert decision.template == "run_changed_tests"
        [outcome] = report.outcomes
        [run] = outcome.results  # one pytest run with every changed test file
        assert run.command[:4] == ["python3", "-m", "pytest", "-q"]
        assert sorted(run.command[4:]) == sorted(tests)
