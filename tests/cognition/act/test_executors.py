"""Executors against real processes: the Claude Code stand-in in tests/bin, and Python."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from cognition.act.executors import (
    PROMPT_PLACEHOLDER,
    ClaudeCodeExecutor,
    ClaudeFlowExecutor,
    DryRunExecutor,
    ExecutionRequest,
    InternalExecutor,
)
from cognition.act.executors.process import run_process
from graph.settings import ExecutorSettings
from tests.support.processes import gone

FAKE_CLAUDE = Path(__file__).resolve().parents[2] / "bin" / "claude"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    return folder


@pytest.fixture
def base_env(tmp_path: Path) -> dict[str, str]:
    """What the daemon would hand the executors: a PATH that finds python3, and the log."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return {"PATH": path, "FAKE_CLAUDE_LOG": str(tmp_path / "claude.log")}


def _settings(**overrides: Any) -> ExecutorSettings:
    return ExecutorSettings(claude_binary=str(FAKE_CLAUDE), **overrides)


def _script(tmp_path: Path, env: dict[str, str], **script: Any) -> dict[str, str]:
    path = tmp_path / f"script-{uuid.uuid4().hex}.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return {**env, "FAKE_CLAUDE_SCRIPT": str(path)}


def _request(root: Path, prompt: str = "write the note", **fields: Any) -> ExecutionRequest:
    return ExecutionRequest(execution_id=str(uuid.uuid4()), prompt=prompt, root=root, **fields)


def _log_entries(tmp_path: Path) -> list[dict[str, Any]]:
    log = tmp_path / "claude.log"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


async def _wait_for_file(path: Path, within_s: float = 10.0) -> str:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if path.exists() and path.read_text():
            return path.read_text()
        await asyncio.sleep(0.02)
    raise AssertionError(f"{path} did not appear")


# --- Claude Code ------------------------------------------------------------


async def test_success_makes_edits_and_reads_the_json_result(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(
        tmp_path,
        base_env,
        edits=[{"path": "notes/out.md", "content": "# Out\n"}],
        result="created notes/out.md",
        total_cost_usd=0.25,
        num_turns=3,
    )
    request = _request(root)
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(request)

    assert result.success, result.error
    assert result.error is None
    assert result.return_code == 0
    assert (root / "notes" / "out.md").read_text() == "# Out\n"
    assert result.output == "created notes/out.md"
    assert result.session_id == request.execution_id
    assert result.cost_usd == 0.25
    assert result.num_turns == 3
    assert not result.timed_out
    assert result.command == [
        str(FAKE_CLAUDE),
        "-p",
        PROMPT_PLACEHOLDER,
        "--output-format",
        "json",
        "--permission-mode",
        "acceptEdits",
        "--allowedTools",
        "Read,Edit,Write,Glob,Grep",
        "--max-turns",
        "10",
        "--session-id",
        request.execution_id,
    ]
    [entry] = _log_entries(tmp_path)
    assert (
        entry["argv"]
        == [request.prompt if a == PROMPT_PLACEHOLDER else a for a in result.command][1:]
    )
    assert Path(entry["cwd"]).resolve() == root.resolve()


async def test_is_error_with_exit_zero_is_a_failure(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(
        tmp_path,
        base_env,
        is_error=True,
        subtype="error_during_execution",
        result="API Error: 429 rate limit exceeded",
        exit_code=0,
    )
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(_request(root))

    assert not result.success
    assert result.return_code == 0
    assert result.error is not None
    assert "rate limit exceeded" in result.error
    assert "error_during_execution" in result.error


async def test_error_subtype_alone_is_a_failure(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(tmp_path, base_env, subtype="error_max_turns", result="")
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(_request(root))

    assert not result.success
    assert result.error is not None and "error_max_turns" in result.error


async def test_exit_zero_with_malformed_json_is_a_failure(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(tmp_path, base_env, raw_stdout='{"type": "result", "is_err', exit_code=0)
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(_request(root))

    assert not result.success
    assert result.return_code == 0
    assert result.error is not None and "without a JSON result" in result.error


async def test_a_warning_line_before_the_json_is_tolerated(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    session = str(uuid.uuid4())
    line = {"type": "result", "subtype": "success", "is_error": False, "result": "ok"}
    raw = "warning: something minor\n" + json.dumps({**line, "session_id": session}) + "\n"
    env = _script(tmp_path, base_env, raw_stdout=raw)
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(_request(root))

    assert result.success, result.error
    assert result.session_id == session


async def test_nonzero_exit_with_an_error_on_stderr_is_a_failure(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(
        tmp_path, base_env, raw_stdout="", stderr="Error: permission denied\n", exit_code=1
    )
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(_request(root))

    assert not result.success
    assert result.return_code == 1
    assert result.error is not None and "Error: permission denied" in result.error


async def test_claudecode_is_removed_from_the_child_environment(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(tmp_path, base_env, refuse_if_nested=True)
    nested = {**env, "CLAUDECODE": "1", "CLAUDE_CODE_ENTRYPOINT": "cli"}

    # The stand-in refuses like the real CLI when the variable reaches it...
    direct = await run_process(
        [str(FAKE_CLAUDE), "-p", "hi", "--output-format", "json"],
        cwd=root,
        env=nested,
        timeout_s=30,
        output_cap_bytes=10_000,
    )
    assert direct.return_code == 1
    assert "cannot be launched inside another Claude Code session" in direct.stderr

    # ...and the executor keeps it from reaching it.
    result = await ClaudeCodeExecutor(_settings(), env=nested).execute(_request(root))
    assert result.success, result.error
    assert [entry["claudecode_set"] for entry in _log_entries(tmp_path)] == [True, False]


async def test_nous_secrets_and_settings_do_not_reach_the_agent(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = {
        **_script(tmp_path, base_env),
        "NEO4J_PASSWORD": "secret",
        "NEO4J_AUTH": "neo4j/secret",
        "NOUS_LLM__API_KEY": "sk-secret",
        "HOME": "/root",
    }
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(_request(root))
    assert result.success, result.error
    [entry] = _log_entries(tmp_path)
    assert "HOME" in entry["env_keys"]
    for private in ("NEO4J_PASSWORD", "NEO4J_AUTH", "NOUS_LLM__API_KEY"):
        assert private not in entry["env_keys"]


async def test_edit_outside_the_root_is_refused(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(tmp_path, base_env, edits=[{"path": "../escaped.md", "content": "no"}])
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(_request(root))

    assert not result.success
    assert not (tmp_path / "escaped.md").exists()
    assert result.error is not None and "outside the working directory" in result.error


async def test_prompt_starting_with_a_dash_is_not_read_as_an_option(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(tmp_path, base_env)
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(_request(root, "--help me"))

    assert result.success, result.error
    [entry] = _log_entries(tmp_path)
    assert entry["argv"][1] == " --help me"


async def test_timeout_kills_the_whole_process_group(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    env = _script(
        tmp_path, base_env, spawn_child_sleep_s=60, child_pid_file=str(pid_file), sleep_s=60
    )
    started = time.monotonic()
    result = await ClaudeCodeExecutor(_settings(), env=env).execute(_request(root, timeout_s=1.5))

    assert time.monotonic() - started < 10
    assert result.timed_out
    assert not result.success
    assert result.error is not None and "timed out" in result.error
    assert result.return_code is not None and result.return_code < 0
    assert await gone(int(pid_file.read_text()))


async def test_a_group_that_ignores_sigterm_gets_sigkill(root: Path, tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    code = (
        "import signal, subprocess, sys, time;"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN);"
        "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']);"
        f"open({str(pid_file)!r}, 'w').write(str(c.pid));"
        "time.sleep(60)"
    )
    started = time.monotonic()
    proc = await run_process(
        [sys.executable, "-c", code],
        cwd=root,
        env={},
        timeout_s=1.0,
        output_cap_bytes=10_000,
        kill_grace_s=0.3,
    )

    assert proc.timed_out
    assert proc.return_code == -9
    assert time.monotonic() - started < 5
    assert await gone(int(pid_file.read_text()))


async def test_orphans_of_a_finished_child_are_ended(root: Path, tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    code = (
        "import subprocess, sys;"
        "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']);"
        f"open({str(pid_file)!r}, 'w').write(str(c.pid));"
        "print('parent done')"
    )
    started = time.monotonic()
    proc = await run_process(
        [sys.executable, "-c", code], cwd=root, env={}, timeout_s=30, output_cap_bytes=10_000
    )

    assert not proc.timed_out
    assert proc.return_code == 0
    assert proc.stdout == "parent done\n"
    assert time.monotonic() - started < 10
    assert await gone(int(pid_file.read_text()))


async def test_output_cap_is_respected_and_the_child_is_not_blocked(root: Path) -> None:
    cap = 64 * 1024
    code = (
        "import sys\n"
        "chunk = b'y' * 65536\n"
        "for _ in range(320): sys.stdout.buffer.write(chunk)\n"  # 20 MiB
        "sys.stderr.write('finished')\n"
    )
    proc = await run_process(
        [sys.executable, "-c", code], cwd=root, env={}, timeout_s=60, output_cap_bytes=cap
    )

    assert proc.return_code == 0
    assert not proc.timed_out
    assert proc.truncated
    assert len(proc.stdout.encode()) == cap
    assert proc.stderr == "finished"


async def test_claude_output_past_the_cap_is_a_failure(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(tmp_path, base_env, output_bytes=5_000_000)
    settings = _settings(output_cap_bytes=100_000)
    result = await ClaudeCodeExecutor(settings, env=env).execute(_request(root))

    assert not result.success
    assert result.return_code == 0
    assert result.error is not None and "cut" in result.error
    assert len(result.output) < 10_000


async def test_cancellation_kills_the_process_group(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    env = _script(
        tmp_path, base_env, spawn_child_sleep_s=60, child_pid_file=str(pid_file), sleep_s=60
    )
    executor = ClaudeCodeExecutor(_settings(), env=env)
    task = asyncio.create_task(executor.execute(_request(root)))
    grandchild = int(await _wait_for_file(pid_file))

    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await gone(grandchild)


async def test_missing_binary_is_a_failure_result(root: Path, base_env: dict[str, str]) -> None:
    settings = ExecutorSettings(claude_binary="nous-no-such-claude-binary")
    result = await ClaudeCodeExecutor(settings, env=base_env).execute(_request(root))

    assert not result.success
    assert result.return_code is None
    assert result.error is not None
    assert "not found" in result.error and "nous-no-such-claude-binary" in result.error


async def test_missing_root_is_a_failure_result(tmp_path: Path, base_env: dict[str, str]) -> None:
    result = await ClaudeCodeExecutor(_settings(), env=base_env).execute(
        _request(tmp_path / "absent")
    )

    assert not result.success
    assert result.error is not None and "could not start" in result.error


def test_execution_id_must_be_a_uuid(root: Path) -> None:
    with pytest.raises(ValueError, match="UUID"):
        ExecutionRequest(execution_id="exec-1", prompt="p", root=root)


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
    request = _request(root, prompt, topology="mesh")
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
    result = await ClaudeFlowExecutor(settings, env=base_env).execute(_request(root))

    assert not result.success
    assert result.return_code == 3
    assert json.loads(result.output)[3] == "hierarchical"
    assert result.error is not None and "exited with code 3" in result.error


async def test_claude_flow_refuses_a_topology_that_looks_like_an_option(
    root: Path, argv_printer: Path, base_env: dict[str, str]
) -> None:
    settings = ExecutorSettings(claude_flow_command=[sys.executable, str(argv_printer)])
    request = _request(root, topology="--evil")
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
    request = _request(root, timeout_s=1.0)
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
    request = _request(root, params={"function": "reindex", "folder": "notes"})
    result = await executor.execute(request)

    assert result.success, result.error
    assert result.output == "reindexed notes"
    assert result.command == ["internal", "reindex"]
    assert seen == [request]
    with pytest.raises(ValueError, match="already registered"):
        executor.register("reindex", reindex)


async def test_internal_unknown_name_is_a_failure_naming_it(root: Path) -> None:
    executor = InternalExecutor(ExecutorSettings())
    result = await executor.execute(_request(root, params={"function": "no_such_fn"}))

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

    failed = await executor.execute(_request(root, params={"function": "broken"}))
    assert not failed.success
    assert failed.error == "RuntimeError: disk full"

    late = await executor.execute(_request(root, params={"function": "slow"}, timeout_s=0.2))
    assert not late.success
    assert late.timed_out


async def test_dry_run_records_the_command_and_runs_nothing(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = _script(tmp_path, base_env, edits=[{"path": "touched.md", "content": "x"}])
    target = ClaudeCodeExecutor(_settings(), env=env)
    request = _request(root)
    result = await DryRunExecutor(target).execute(request)

    assert result.success
    assert result.output.startswith("dry run")
    assert result.command == target.command_for(request)
    assert request.prompt not in result.output
    assert _log_entries(tmp_path) == []
    assert not (root / "touched.md").exists()
