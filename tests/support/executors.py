"""Helpers of the executor tests: the Claude Code stand-in, its script and log, requests."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from pathlib import Path
from typing import Any

from cognition.act.executors import ExecutionRequest
from graph.settings import ExecutorSettings

FAKE_CLAUDE = Path(__file__).resolve().parents[1] / "bin" / "claude"


def claude_settings(**overrides: Any) -> ExecutorSettings:
    return ExecutorSettings(claude_binary=str(FAKE_CLAUDE), **overrides)


def scripted_env(tmp_path: Path, env: dict[str, str], **script: Any) -> dict[str, str]:
    path = tmp_path / f"script-{uuid.uuid4().hex}.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return {**env, "FAKE_CLAUDE_SCRIPT": str(path)}


def execution_request(
    root: Path, prompt: str = "write the note", **fields: Any
) -> ExecutionRequest:
    return ExecutionRequest(execution_id=str(uuid.uuid4()), prompt=prompt, root=root, **fields)


def log_entries(tmp_path: Path) -> list[dict[str, Any]]:
    log = tmp_path / "claude.log"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


async def wait_for_file(path: Path, within_s: float = 10.0) -> str:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if path.exists() and path.read_text():
            return path.read_text()
        await asyncio.sleep(0.02)
    raise AssertionError(f"{path} did not appear")
