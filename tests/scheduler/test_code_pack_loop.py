"""The code-repository pack in the real loop: a test run by the project's own command.

``nous templates init`` on a tiny Python project, the user's one edit (the
test command uses this interpreter, which has pytest), then the decision loop
as the daemon builds it, live: a failing test is run with ``pytest``, the
failure escalated naming the failing test; once fixed, the same template
succeeds from the exit status. A changelog edit starts no action.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from graph.store.memory import Memory
from scheduler.cli import main
from scheduler.cli.runs import render_runs, runs_report
from tests.support.loop_rig import loop_rig, loop_settings
from tests.support.packs import make_tree

REPO = Path(__file__).resolve().parents[2]
EMPTY = REPO / "tests" / "support" / "empty.yaml"
FAILING = "from tiny.core import add\n\n\ndef test_add():\n    assert add(1, 2) == 4\n"


async def _decisions(memory: Memory, path: str) -> list[dict[str, Any]]:
    rows = await memory.read("audit/recent_decisions", limit=100)
    return [row for row in rows if row["path"] == path]


async def test_a_failing_test_is_run_escalated_and_after_the_fix_succeeds(
    tmp_path: Path, memory: Memory
) -> None:
    root = make_tree(
        tmp_path / "tiny",
        {
            "pyproject.toml": "[project]\nname = 'tiny'\n",
            "tiny/__init__.py": "",
            "tiny/core.py": "def add(a, b):\n    return a + b\n",
            "tests/test_core.py": FAILING,
            "CHANGES.md": "# Changes\n",
        },
    )
    assert main(["templates", "init", "--root", str(root), "--config", str(EMPTY)]) == 0
    own = root / ".nous" / "templates.yaml"
    # The user's edits: this interpreter runs the tests; the dependency check stays off.
    text = own.read_text().replace('"python3"', f'"{sys.executable}"')
    own.write_text(text.replace("    enabled: true\n", "    enabled: false\n", 1))

    settings = loop_settings(root, REPO / "tests" / "bin" / "claude")
    env = {"PATH": os.environ.get("PATH", "")}
    async with loop_rig(settings, memory, root, env, grace_s=0.5) as rig:
        await rig.observe()
        await rig.tick_and_act(timeout_s=300)

        [test_run] = [d for d in await _decisions(memory, "tests/test_core.py")]
        assert (test_run["type"], test_run["template"]) == ("act", "run_changed_tests")
        assert test_run["status"] == "escalated" and test_run["outcome_success"] is False
        [execution] = await memory.read("audit/executions_for_decision", decision_id=test_run["id"])
        assert execution["return_code"] == 1
        assert "FAILED tests/test_core.py::test_add" in execution["error"]
        [escalation] = await memory.read(
            "audit/escalations_for_decision", decision_id=test_run["id"]
        )
        assert "FAILED tests/test_core.py::test_add" in str(escalation)
        runs = await runs_report(memory)  # what `nous status` shows of it
        assert "  last run   run_changed_tests: failed " in "\n".join(render_runs(runs))
        [last] = [r for r in runs["last"] if r["template"] == "run_changed_tests"]
        assert last["failing"] == ["tests/test_core.py::test_add"]
        assert all(d["type"] != "act" for d in await _decisions(memory, "CHANGES.md"))

        (root / "tests" / "test_core.py").write_text(FAILING.replace("== 4", "== 3"))
        await rig.observe()
        await rig.tick_and_act(timeout_s=300)
        latest = (await _decisions(memory, "tests/test_core.py"))[0]
        assert (latest["type"], latest["template"]) == ("act", "run_changed_tests")
        assert latest["status"] == "done" and latest["outcome_success"] is True
        # The run that passed closed the earlier failure's escalation, saying so.
        fixed = await memory.audit.escalation(escalation["id"])
        assert fixed is not None and fixed.escalation.status == "resolved"
        assert (fixed.escalation.note or "").startswith("fixed by the run at ")
        assert latest["id"] in (fixed.escalation.note or "")
        runs = await runs_report(memory)
        assert "  last run   run_changed_tests: passed " in "\n".join(render_runs(runs))
