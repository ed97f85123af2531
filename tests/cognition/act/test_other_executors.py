"""The claude-flow, internal and dry-run executors against real processes."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest

from cognition.act.executors import (
    PROMPT_PLACEHOLDER,
    ClaudeCodeExecutor,
    ClaudeFlowExecutor,
    DryRunExecutor,
    ExecutionRequest,
    InternalExecutor,
)
from graph.settings import ExecutorSettings
from tests.support.executors import claude_settings, execution_request, log_entries, scripted_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")


# --- claude-flow ------------------------------------------------------------


@pytest.fixture
def argv_printer(tmp_path: Path) -> Path:
    script = tmp_path / "print_argv.py"
    script.write_text(
        "import json, sys\n"
        "print(json.dumps(sys.argv[1:]))\n"
        "sys.exit(3 if '--fail' in sys.argv else 0)\n",
        encoding="utf-8",
    )
    return script


async def test_claude_flow_substitutes_whole_arguments(
    root: Path, argv_printer: Path, base_env: dict[str, str]
) -> None:
    command = [sys.executable, str(argv_printer), "swarm", "init", "--topology", "{topology}"]
    settings = ExecutorSettings(claude_flow_command=[*command, "--task", "{prompt}", "x{prompt}"])
    prompt = "fix it; rm -rf / $(whoami)"
    request = execution_request(root, prompt, topology="mesh")
    result = await ClaudeFlowExecutor(settings, env=base_env).execute(request)

    assert result.success, result.error
    assert json.loads(result.output) == [
        "swarm",
        "init",
        "--topology",
        "mesh",
        "--task",
        prompt,
        "x{prompt}",
    ]
    assert result.command[-2:] == [PROMPT_PLACEHOLDER, "x{prompt}"]


async def test_claude_flow_defaults_the_topology_and_fails_on_nonzero_exit(
    root: Path, argv_printer: Path, base_env: dict[str, str]
) -> None:
    command = [sys.executable, str(argv_printer), "swarm", "init", "--topology", "{topology}"]
    settings = ExecutorSettings(claude_flow_command=[*command, "{prompt}", "--fail"])
    result = await ClaudeFlowExecutor(settings, env=base_env).execute(execution_request(root))

    assert not result.success
    assert result.return_code == 3
    assert json.loads(result.output)[3] == "hierarchical"
    assert result.error is not None and "exited with code 3" in result.error


async def test_claude_flow_refuses_a_topology_that_looks_like_an_option(
    root: Path, argv_printer: Path, base_env: dict[str, str]
) -> None:
    settings = ExecutorSettings(claude_flow_command=[sys.executable, str(argv_printer)])
    request = execution_request(root, topology="--evil")
    result = await ClaudeFlowExecutor(settings, env=base_env).execute(request)

    assert not result.success
    assert result.error is not None and "topology" in result.error


async def test_claude_flow_times_out_with_what_it_printed(
    root: Path, tmp_path: Path, base_env: dict[str, str]
) -> None:
    script = tmp_path / "slow_flow.py"
    script.write_text(
        'import sys, time\nprint("swarm started", flush=True)\ntime.sleep(60)\n',
        encoding="utf-8",
    )
    settings = ExecutorSettings(claude_flow_command=[sys.executable, str(script), "{prompt}"])
    started = time.monotonic()
    request = execution_request(root, timeout_s=1.0)
    result = await ClaudeFlowExecutor(settings, env=base_env).execute(request)

    assert time.monotonic() - started < 10
    assert result.timed_out
    assert not result.success
    assert result.error is not None and "timed out after 1 s" in result.error
    assert result.output.strip() == "swarm started"


# --- internal and dry run ---------------------------------------------------


async def test_internal_runs_a_registered_function(root: Path) -> None:
    seen: list[ExecutionRequest] = []

    async def reindex(request: ExecutionRequest) -> str:
        seen.append(request)
        return f"reindexed {request.params['folder']}"

    executor = InternalExecutor(ExecutorSettings())
    executor.register("reindex", reindex)
    request = execution_request(root, params={"function": "reindex", "folder": "notes"})
    result = await executor.execute(request)

    assert result.success, result.error
    assert result.output == "reindexed notes"
    assert result.command == ["internal", "reindex"]
    assert seen == [request]
    with pytest.raises(ValueError, match="already registered"):
        executor.register("reindex", reindex)


async def test_internal_unknown_name_is_a_failure_naming_it(root: Path) -> None:
    executor = InternalExecutor(ExecutorSettings())
    result = await executor.execute(execution_request(root, params={"function": "no_such_fn"}))

    assert not result.success
    assert result.error is not None and "'no_such_fn'" in result.error


async def test_internal_exception_and_timeout_are_failures(root: Path) -> None:
    async def broken(request: ExecutionRequest) -> None:
        raise RuntimeError("disk full")

    async def slow(request: ExecutionRequest) -> None:
        await asyncio.sleep(30)

    executor = InternalExecutor(ExecutorSettings())
    executor.register("broken", broken)
    executor.register("slow", slow)

    failed = await executor.execute(execution_request(root, params={"function": "broken"}))
    assert not failed.success
    assert failed.error == "RuntimeError: disk full"

    late = await executor.execute(
        execution_request(root, params={"function": "slow"}, timeout_s=0.2)
    )
    assert not late.success
    assert late.timed_out


async def test_dry_run_records_the_command_and_runs_nothing(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = scripted_env(tmp_path, base_env, edits=[{"path": "touched.md", "content": "x"}])
    target = ClaudeCodeExecutor(claude_settings(), env=env)
    request = execution_request(root)
    result = await DryRunExecutor(target).execute(request)

    assert result.success
    assert result.output.startswith("dry run")
    assert result.command == target.command_for(request)
    assert request.prompt not in result.output
    assert log_entries(tmp_path) == []
    assert not (root / "touched.md").exists()
