"""Tests first, then the whole suite: the command executor's two phases, with real pytest.

A tiny project whose ``tests/test_later.py`` leaves a mark when it runs, so a test
can tell whether the whole suite ran after the files run first.
"""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from pathlib import Path

import pytest

from cognition.act.command import ARGV_PARAM, FIRST_PARAM
from cognition.act.executors import CommandExecutor, ExecutionRequest, ExecutionResult
from graph.settings import ExecutorSettings
from tests.support.packs import make_tree

PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
TREE = {
    "tests/__init__.py": "",
    "tests/test_first.py": "def test_ok():\n    assert True\n",
    "tests/test_broken.py": "def test_sum():\n    assert 1 + 1 == 3\n",
    "tests/test_later.py": "from pathlib import Path\n\n\ndef test_mark():\n"
    "    Path('later.mark').write_text('ran')\n",
    "tests/test_slow.py": "import os, time\nfrom pathlib import Path\n\n\ndef test_slow():\n"
    "    Path('slow.pid').write_text(str(os.getpid()))\n    time.sleep(60)\n",
}


def _request(root: Path, argv: list[str], first: list[str]) -> ExecutionRequest:
    return ExecutionRequest(
        execution_id=str(uuid.uuid4()),
        prompt="run the tests",
        root=root,
        timeout_s=120,
        params={ARGV_PARAM: argv, FIRST_PARAM: first},
    )


async def _execute(root: Path, argv: list[str], first: list[str]) -> ExecutionResult:
    # No plugins of this venv loaded: each pytest starts in a fraction of the time.
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    executor = CommandExecutor(ExecutorSettings(), env=env)
    return await executor.execute(_request(root, argv, first))


async def test_a_failure_run_first_is_the_runs_failure_naming_its_tests(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "p", {k: v for k, v in TREE.items() if "slow" not in k})
    result = await _execute(root, PYTEST, ["tests/test_broken.py"])
    assert result.success is False and result.return_code == 1
    assert result.command == [*PYTEST, "tests/test_broken.py"]  # what ran
    assert result.error is not None
    assert result.error.startswith("1 test file(s) run first failed: ")
    assert "FAILED tests/test_broken.py::test_sum" in result.error
    assert not (root / "later.mark").exists()  # the whole suite never started


async def test_files_that_pass_first_are_followed_by_the_whole_suite(tmp_path: Path) -> None:
    tree = {k: v for k, v in TREE.items() if "slow" not in k and "broken" not in k}
    root = make_tree(tmp_path / "p", tree)
    result = await _execute(root, PYTEST, ["tests/test_first.py"])
    assert result.success is True and result.command == PYTEST
    assert result.output.startswith("[nous] 1 test file(s) run first: passed in ")
    assert (root / "later.mark").read_text() == "ran"
    # The whole suite's verdict stands: a failure outside the files run first is the run's.
    (root / "tests" / "test_broken.py").write_text(TREE["tests/test_broken.py"])
    failed = await _execute(root, PYTEST, ["tests/test_first.py"])
    assert failed.success is False and failed.command == PYTEST
    assert failed.error is not None and "FAILED tests/test_broken.py::test_sum" in failed.error


async def test_no_test_collected_first_goes_on_to_the_whole_suite(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "p", {**TREE, "tests/test_slow.py": "", "tests/test_broken.py": ""})
    result = await _execute(root, PYTEST, ["tests/test_slow.py"])  # exit status 5
    assert result.success is True
    assert "exit status 5" in result.output and (root / "later.mark").exists()


async def test_cancelling_during_the_first_phase_ends_its_group_and_the_run(
    tmp_path: Path,
) -> None:
    root = make_tree(tmp_path / "p", TREE)
    task = asyncio.create_task(_execute(root, PYTEST, ["tests/test_slow.py"]))
    pid_file = root / "slow.pid"
    for _ in range(300):
        if pid_file.exists() and pid_file.read_text():
            break
        await asyncio.sleep(0.05)
    pid = int(pid_file.read_text())
    task.cancel()  # as on_busy: restart and shutdown do
    with pytest.raises(asyncio.CancelledError):
        await task
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    await asyncio.sleep(0.5)
    assert not (root / "later.mark").exists()  # the whole suite never started
