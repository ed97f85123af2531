"""The learned test order: which test files run first for a change (real Neo4j, real files).

A tiny project: ``tests/test_core.py`` imports ``tiny.core``; ``tests/test_data.py``
imports nothing of it but reads ``tiny/limits.py``, so only a remembered failure can
put it first.
"""

from __future__ import annotations

import os
from pathlib import Path

from cognition.act.action import PlannedAction
from cognition.act.command import ARGV_PARAM, FIRST_PARAM
from cognition.act.imports import MAX_BYTES, ImportGraph
from cognition.act.templates import parse_templates
from cognition.act.test_order import TestOrder, is_test_file
from graph.models import (
    ActionTarget,
    Decision,
    DecisionType,
    Execution,
    Observation,
    ObservationType,
)
from graph.store.memory import Memory
from tests.support.packs import make_tree

TEMPLATES = parse_templates(
    """
templates:
  run_suite:
    version: 1
    title: run_suite
    trigger: {observation_category: code}
    target: command
    command: ["python3", "-m", "pytest", "-q"]
    tests_first: true
    prompt_template: "Code changed: {{ path }}"
    parameters: {path: {type: path, required: true}}
  run_plain:
    version: 1
    title: run_plain
    trigger: {observation_category: code}
    target: command
    command: ["python3", "-m", "pytest", "-q"]
    prompt_template: "Code changed: {{ path }}"
    parameters: {path: {type: path, required: true}}
""",
    "test.yaml",
)
TREE = {
    "pyproject.toml": "[project]\nname = 'tiny'\n",
    "tiny/__init__.py": "from tiny.core import add\n",
    "tiny/core.py": "def add(a, b):\n    return a + b\n",
    "tiny/limits.py": "LIMIT = 3\n",
    "tiny/wrap.py": "from .core import add\n\n\ndef twice(a):\n    return add(a, a)\n",
    "tests/__init__.py": "",
    "tests/test_core.py": "from tiny.core import add\n\n\ndef test_add():\n"
    "    assert add(1, 2) == 3\n",
    "tests/test_wrap.py": "from tiny import wrap\n\n\ndef test_twice():\n"
    "    assert wrap.twice(2) == 4\n",
    "tests/test_pkg.py": "import tiny\n\n\ndef test_pkg():\n    assert tiny.add(1, 1) == 2\n",
    "tests/test_data.py": "from pathlib import Path\n\n\ndef test_limit():\n"
    "    assert 'LIMIT = 3' in Path('tiny/limits.py').read_text()\n",
}


def _planned(template: str) -> PlannedAction:
    argv = ["python3", "-m", "pytest", "-q"]
    return PlannedAction(
        ActionTarget.COMMAND, "Code changed", template=template, params={ARGV_PARAM: argv}
    )


def _change(path: str) -> list[Observation]:
    return [Observation(agent_id="t", type=ObservationType.FILE_MODIFIED, path=path)]


async def _failed_run(memory: Memory, changed: list[str], broken: dict[str, list[str]]) -> None:
    decision = Decision(
        agent_id=memory.agent_id, type=DecisionType.ACT, confidence=0.8, template="run_suite"
    )
    await memory.decisions.record_decision(decision, [], observation_ids=[])
    execution = Execution(
        agent_id=memory.agent_id,
        decision_id=decision.id,
        target=ActionTarget.COMMAND,
        template="run_suite",
    )
    await memory.decisions.start_execution(execution)
    assert await memory.test_runs.record_failures(execution.id, changed, broken) == len(broken)


async def test_an_importing_test_comes_first(tmp_path: Path, memory: Memory) -> None:
    root = make_tree(tmp_path / "tiny", TREE)
    order = TestOrder(memory.test_runs, root, TEMPLATES)
    # Direct importers, then one through tiny/wrap.py; not through tiny/__init__.py.
    assert await order.select(["tiny/core.py"]) == ["tests/test_core.py", "tests/test_wrap.py"]
    arranged = await order.arrange(_planned("run_suite"), _change("tiny/core.py"))
    assert arranged is not None
    assert arranged.params[FIRST_PARAM] == ["tests/test_core.py", "tests/test_wrap.py"]
    assert arranged.params[ARGV_PARAM] == ["python3", "-m", "pytest", "-q"]  # still the whole


async def test_nothing_known_runs_the_whole_suite(tmp_path: Path, memory: Memory) -> None:
    root = make_tree(tmp_path / "tiny", TREE)
    order = TestOrder(memory.test_runs, root, TEMPLATES)
    planned = _planned("run_suite")
    assert await order.arrange(planned, _change("tiny/limits.py")) is planned
    # A template without tests_first, or the setting off: unchanged even where much is known.
    assert await order.arrange(_planned("run_plain"), _change("tiny/core.py")) == _planned(
        "run_plain"
    )
    off = TestOrder(memory.test_runs, root, TEMPLATES, enabled=False)
    assert await off.arrange(planned, _change("tiny/core.py")) is planned


async def test_a_test_a_change_broke_before_comes_first(tmp_path: Path, memory: Memory) -> None:
    root = make_tree(tmp_path / "tiny", TREE)
    order = TestOrder(memory.test_runs, root, TEMPLATES)
    await _failed_run(memory, ["tiny/limits.py"], {"tests/test_data.py": ["t::test_limit"]})
    await _failed_run(memory, ["tiny/core.py"], {"tests/test_pkg.py": ["t::test_pkg"]})
    await _failed_run(memory, ["tiny/core.py", "tiny/limits.py"], {"tests/gone.py": ["g::t"]})
    assert await order.select(["tiny/limits.py"]) == ["tests/test_data.py"]  # gone.py: no file
    # Learned first, then the importers.
    assert await order.select(["tiny/core.py"]) == [
        "tests/test_pkg.py",
        "tests/test_core.py",
        "tests/test_wrap.py",
    ]
    broken = await memory.test_runs.broken_by(["tiny/core.py"])
    # Equal counts: the latest failure first.
    assert [(b.path, b.runs) for b in broken] == [("tests/gone.py", 1), ("tests/test_pkg.py", 1)]
    assert await memory.test_runs.broken_by(["tiny/other.py"]) == []


def test_test_files_are_named_as_pytest_collects_them() -> None:
    assert is_test_file("tests/test_core.py") and is_test_file("pkg/core_test.py")
    assert not is_test_file("tests/conftest.py") and not is_test_file("tiny/testing.py")


def test_hostile_files_are_skipped_and_counted(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "tiny", TREE)
    (root / "tiny" / "broken.py").write_text("def (:\n")
    (root / "tests" / "test_broken.py").write_text("import tiny.core\nclass\n")
    (root / "tiny" / "nul.py").write_bytes(b"import os\x00\n")
    odd = os.fsencode(root / "tests") + b"/test_\xff\xfe.py"
    with open(odd, "wb") as handle:
        handle.write(b"from tiny.core import add\n")
    (root / "tests" / "test with space.py").write_text("from tiny.core import add\n")
    (root / "tests" / "test_huge.py").write_text("from tiny.core import add\n")
    os.truncate(root / "tests" / "test_huge.py", 50 * 1024 * 1024)  # 50 MB
    os.mkfifo(root / "tests" / "test_fifo.py")
    (root / "tests" / "test_link.py").symlink_to("/etc/passwd")
    (root / "loop").symlink_to(root)
    graph = ImportGraph(root)
    scan = graph.scan()
    assert scan.skipped["unparsable"] == 3
    assert scan.skipped["odd name"] == 2
    assert scan.skipped["too big"] == 1
    assert MAX_BYTES < 50 * 1024 * 1024
    found = graph.importers(["tiny/core.py"], is_test_file)
    assert found == ["tests/test_core.py", "tests/test_wrap.py"]
