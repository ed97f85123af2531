"""Executors' child processes: timeouts, process groups, output caps, cancellation, absences."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

from cognition.act.executors import ClaudeCodeExecutor, ExecutionRequest
from cognition.act.executors.process import run_process
from graph.settings import ExecutorSettings
from tests.support.executors import claude_settings, execution_request, scripted_env, wait_for_file
from tests.support.processes import gone

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")


async def test_timeout_kills_the_whole_process_group(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    env = scripted_env(
        tmp_path, base_env, spawn_child_sleep_s=60, child_pid_file=str(pid_file), sleep_s=60
    )
    started = time.monotonic()
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(
        execution_request(root, timeout_s=1.5)
    )

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
    env = scripted_env(tmp_path, base_env, output_bytes=5_000_000)
    settings = claude_settings(output_cap_bytes=100_000)
    result = await ClaudeCodeExecutor(settings, env=env).execute(execution_request(root))

    assert not result.success
    assert result.return_code == 0
    assert result.error is not None and "cut" in result.error
    assert len(result.output) < 10_000


async def test_cancellation_kills_the_process_group(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    env = scripted_env(
        tmp_path, base_env, spawn_child_sleep_s=60, child_pid_file=str(pid_file), sleep_s=60
    )
    executor = ClaudeCodeExecutor(claude_settings(), env=env)
    task = asyncio.create_task(executor.execute(execution_request(root)))
    grandchild = int(await wait_for_file(pid_file))

    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await gone(grandchild)


async def test_missing_binary_is_a_failure_result(root: Path, base_env: dict[str, str]) -> None:
    settings = ExecutorSettings(claude_binary="nous-no-such-claude-binary")
    result = await ClaudeCodeExecutor(settings, env=base_env).execute(execution_request(root))

    assert not result.success
    assert result.return_code is None
    assert result.error is not None
    assert "not found" in result.error and "nous-no-such-claude-binary" in result.error


async def test_missing_root_is_a_failure_result(tmp_path: Path, base_env: dict[str, str]) -> None:
    result = await ClaudeCodeExecutor(claude_settings(), env=base_env).execute(
        execution_request(tmp_path / "absent")
    )

    assert not result.success
    assert result.error is not None and "could not start" in result.error


def test_execution_id_must_be_a_uuid(root: Path) -> None:
    with pytest.raises(ValueError, match="UUID"):
        ExecutionRequest(execution_id="exec-1", prompt="p", root=root)
