"""The command executor: a template's own command, success from its exit status, what failed."""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from pathlib import Path

from cognition.act.command import ARGV_PARAM
from cognition.act.executors import CommandExecutor, ExecutionRequest, executors_for
from cognition.act.executors.internal import InternalExecutor
from graph.models import ActionTarget
from graph.settings import ExecutorSettings

FAILING_RUN = """\
import sys
print("tests/test_a.py .F")
print("FAILED tests/test_a.py::test_sum - assert 3 == 4")
print("1 failed, 1 passed in 0.01s")
sys.exit(1)
"""


def _run(root: Path, argv: list[str]) -> tuple[bool, str | None, str, list[str]]:
    executor = CommandExecutor(ExecutorSettings(), env=dict(os.environ))
    request = ExecutionRequest(
        execution_id=str(uuid.uuid4()), prompt="run the tests", root=root, params={ARGV_PARAM: argv}
    )
    result = asyncio.run(executor.execute(request))
    return result.success, result.error, result.output, result.command


def test_exit_status_zero_is_success_and_runs_in_the_root(tmp_path: Path) -> None:
    (tmp_path / "check.py").write_text("import os; print(sorted(os.listdir('.')))\n")
    success, error, output, command = _run(tmp_path, [sys.executable, "check.py"])
    assert (success, error) == (True, None)
    assert "check.py" in output
    assert command == [sys.executable, "check.py"]


def test_a_failure_names_what_failed(tmp_path: Path) -> None:
    (tmp_path / "run.py").write_text(FAILING_RUN)
    success, error, _, _ = _run(tmp_path, [sys.executable, "run.py"])
    assert success is False
    assert error is not None
    assert "exited with status 1" in error
    assert "FAILED tests/test_a.py::test_sum - assert 3 == 4" in error
    assert "1 failed" in error
    assert ".F" not in error  # only the lines that say what failed


def test_without_failure_lines_the_tail_is_kept(tmp_path: Path) -> None:
    script = "import sys\nfor i in range(40): print('line', i)\nsys.exit(3)\n"
    (tmp_path / "run.py").write_text(script)
    _, error, _, _ = _run(tmp_path, [sys.executable, "run.py"])
    assert error is not None
    assert "line 39" in error and "line 0\n" not in error


def test_no_command_and_a_missing_program_are_failures_not_exceptions(tmp_path: Path) -> None:
    assert _run(tmp_path, [])[:2] == (False, "the template gives no command to run")
    success, error, _, _ = _run(tmp_path, ["no-such-program-for-nous"])
    assert success is False
    assert error is not None and "not found" in error


def test_the_command_target_has_an_executor_and_a_dry_run_records_only(tmp_path: Path) -> None:
    live = executors_for(ExecutorSettings(), {}, InternalExecutor(ExecutorSettings()))
    assert isinstance(live[ActionTarget.COMMAND], CommandExecutor)
    dry = executors_for(ExecutorSettings(dry_run=True), {}, InternalExecutor(ExecutorSettings()))
    marker = tmp_path / "ran"
    request = ExecutionRequest(
        execution_id=str(uuid.uuid4()),
        prompt="p",
        root=tmp_path,
        params={ARGV_PARAM: [sys.executable, "-c", f"open({str(marker)!r}, 'w')"]},
    )
    result = asyncio.run(dry[ActionTarget.COMMAND].execute(request))
    assert result.success and not marker.exists()


def test_a_command_word_is_one_whole_path_never_an_option() -> None:
    from cognition.act.command import command_problems, render_command
    from cognition.act.render import Parameter

    argv = render_command(["pytest", "-q", "{{ path }}"], {"path": "-k evil.py"})
    assert argv == ["pytest", "-q", "./-k evil.py"]
    declared = {"target": Parameter(type="path"), "note": Parameter(type="string")}
    problems = dict(command_problems(["run", "--file={{ path }}", "{{ note }}", ""], declared))
    assert set(problems) == {1, 2, 3}
    assert "must be the whole word" in problems[1]
    assert "not a path it can take" in problems[2]
    assert list(command_problems(["run", "{{ target }}", "{{from_path}}"], declared)) == []
