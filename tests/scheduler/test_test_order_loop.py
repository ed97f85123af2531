"""The tests that matter first, learned, in the real loop with the code-repository pack.

``nous templates init`` on a tiny Python project (its first look a baseline), the
decision loop as the daemon builds it, live, real pytest: a change to
``tiny/limits.py``, which no test imports, runs the whole suite; its failure is
remembered against that file, so the next change to it runs the test it broke first,
and that failure is the run's, its test named. ``executor.tests_first: false`` runs
the whole suite again.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from cognition.act.test_names import failing_tests
from graph.store.memory import Memory
from scheduler.cli import main
from tests.support.loop_rig import LoopRig, loop_rig, loop_settings
from tests.support.packs import make_tree

REPO = Path(__file__).resolve().parents[2]
EMPTY = REPO / "tests" / "support" / "empty.yaml"
TREE = {
    "pyproject.toml": "[project]\nname = 'tiny'\n",
    "tiny/__init__.py": "",
    "tiny/core.py": "def add(a, b):\n    return a + b\n",
    "tiny/limits.py": "LIMIT = 3\n",
    "tests/__init__.py": "",
    "tests/test_data.py": "from pathlib import Path\n\n\ndef test_limit():\n"
    "    assert 'LIMIT = 3' in Path('tiny/limits.py').read_text()\n",
}


async def _run_after(rig: LoopRig, path: str, text: str) -> dict[str, Any]:
    """Change ``path``; the one execution the loop ran for it."""
    (rig.root / path).write_text(text)
    await rig.observe()
    report = await rig.tick_and_act(timeout_s=120)
    # Beside it, the earlier failure's task_failed is decided (no template acts on it here).
    runs = [d for d in report.decisions if d.template == "run_tests_for_changed_code"]
    assert [d.path for d in runs] == [path]
    [outcome] = report.outcomes
    [result] = outcome.results  # what the Execution node records
    return {"command": result.command, "error": result.error or ""}


@pytest.mark.parametrize("tests_first", [True, False])
async def test_a_test_a_change_broke_runs_first_next_time(
    tmp_path: Path, memory: Memory, tests_first: bool
) -> None:
    root = make_tree(tmp_path / "tiny", TREE)
    assert main(["templates", "init", "--root", str(root), "--config", str(EMPTY)]) == 0
    own = root / ".nous" / "templates.yaml"
    assert "    tests_first: true\n" in own.read_text()
    own.write_text(own.read_text().replace('"python3"', f'"{sys.executable}"'))
    settings = loop_settings(
        root, REPO / "tests" / "bin" / "claude", **{"executors.tests_first": tests_first}
    )
    env = {"PATH": os.environ.get("PATH", ""), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    whole = [sys.executable, "-m", "pytest", "-q"]
    async with loop_rig(settings, memory, root, env, grace_s=0.1) as rig:
        rig.index_sync.baseline = settings.watch.baseline
        await rig.observe()  # the baseline: nothing runs

        first = await _run_after(rig, "tiny/limits.py", "LIMIT = 4\n")
        assert first["command"] == whole  # nothing known: the whole suite
        assert failing_tests(first["error"]) == ["tests/test_data.py::test_limit"]
        learned = await memory.test_runs.broken_by(["tiny/limits.py"])
        assert [b.path for b in learned] == ["tests/test_data.py"]

        again = await _run_after(rig, "tiny/limits.py", "LIMIT = 5\n")
        assert failing_tests(again["error"]) == ["tests/test_data.py::test_limit"]
        if not tests_first:
            assert again["command"] == whole
            return
        assert again["command"] == [*whole, "tests/test_data.py"]  # the learned test, first
        assert again["error"].startswith("1 test file(s) run first failed")
