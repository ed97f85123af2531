"""The Claude Code executor against the stand-in in tests/bin: results, errors, environment."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path

import pytest

from cognition.act.executors import PROMPT_PLACEHOLDER, ClaudeCodeExecutor
from cognition.act.executors.process import run_process
from tests.support.executors import (
    FAKE_CLAUDE,
    claude_settings,
    execution_request,
    log_entries,
    scripted_env,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")


# --- Claude Code ------------------------------------------------------------


async def test_success_makes_edits_and_reads_the_json_result(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = scripted_env(
        tmp_path,
        base_env,
        edits=[{"path": "notes/out.md", "content": "# Out\n"}],
        result="created notes/out.md",
        total_cost_usd=0.25,
        num_turns=3,
    )
    request = execution_request(root)
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(request)

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
    [entry] = log_entries(tmp_path)
    assert (
        entry["argv"]
        == [request.prompt if a == PROMPT_PLACEHOLDER else a for a in result.command][1:]
    )
    assert Path(entry["cwd"]).resolve() == root.resolve()


async def test_is_error_with_exit_zero_is_a_failure(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = scripted_env(
        tmp_path,
        base_env,
        is_error=True,
        subtype="error_during_execution",
        result="API Error: 429 rate limit exceeded",
        exit_code=0,
    )
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(execution_request(root))

    assert not result.success
    assert result.return_code == 0
    assert result.error is not None
    assert "rate limit exceeded" in result.error
    assert "error_during_execution" in result.error


async def test_error_subtype_alone_is_a_failure(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = scripted_env(tmp_path, base_env, subtype="error_max_turns", result="")
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(execution_request(root))

    assert not result.success
    assert result.error is not None and "error_max_turns" in result.error


async def test_exit_zero_with_malformed_json_is_a_failure(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = scripted_env(tmp_path, base_env, raw_stdout='{"type": "result", "is_err', exit_code=0)
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(execution_request(root))

    assert not result.success
    assert result.return_code == 0
    assert result.error is not None and "without a JSON result" in result.error


async def test_a_warning_line_before_the_json_is_tolerated(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    session = str(uuid.uuid4())
    line = {"type": "result", "subtype": "success", "is_error": False, "result": "ok"}
    raw = "warning: something minor\n" + json.dumps({**line, "session_id": session}) + "\n"
    env = scripted_env(tmp_path, base_env, raw_stdout=raw)
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(execution_request(root))

    assert result.success, result.error
    assert result.session_id == session


async def test_nonzero_exit_with_an_error_on_stderr_is_a_failure(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = scripted_env(
        tmp_path, base_env, raw_stdout="", stderr="Error: permission denied\n", exit_code=1
    )
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(execution_request(root))

    assert not result.success
    assert result.return_code == 1
    assert result.error is not None and "Error: permission denied" in result.error


async def test_claudecode_is_removed_from_the_child_environment(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = scripted_env(tmp_path, base_env, refuse_if_nested=True)
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
    result = await ClaudeCodeExecutor(claude_settings(), env=nested).execute(
        execution_request(root)
    )
    assert result.success, result.error
    assert [entry["claudecode_set"] for entry in log_entries(tmp_path)] == [True, False]


async def test_nous_secrets_and_settings_do_not_reach_the_agent(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = {
        **scripted_env(tmp_path, base_env),
        "NEO4J_PASSWORD": "secret",
        "NEO4J_AUTH": "neo4j/secret",
        "NOUS_LLM__API_KEY": "sk-secret",
        "HOME": "/root",
    }
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(execution_request(root))
    assert result.success, result.error
    [entry] = log_entries(tmp_path)
    assert "HOME" in entry["env_keys"]
    for private in ("NEO4J_PASSWORD", "NEO4J_AUTH", "NOUS_LLM__API_KEY"):
        assert private not in entry["env_keys"]


async def test_edit_outside_the_root_is_refused(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = scripted_env(tmp_path, base_env, edits=[{"path": "../escaped.md", "content": "no"}])
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(execution_request(root))

    assert not result.success
    assert not (tmp_path / "escaped.md").exists()
    assert result.error is not None and "outside the working directory" in result.error


async def test_prompt_starting_with_a_dash_is_not_read_as_an_option(
    tmp_path: Path, root: Path, base_env: dict[str, str]
) -> None:
    env = scripted_env(tmp_path, base_env)
    result = await ClaudeCodeExecutor(claude_settings(), env=env).execute(
        execution_request(root, "--help me")
    )

    assert result.success, result.error
    [entry] = log_entries(tmp_path)
    assert entry["argv"][1] == " --help me"
