"""Running the real Claude Code CLI in tests, against the scripted Anthropic server.

The CLI is found, in order: ``NOUS_TEST_CLAUDE`` (a path), ``claude`` on
``PATH`` (``.ci/run`` installs the pinned one and puts it there), and, for a
developer's machine only, the copy under ``/work/tools``. Without one a test
is skipped, and under ``CI=true`` it fails.

Each run gets a ``HOME`` of its own (so no user settings, credentials or
history leak in), the scripted server as ``ANTHROPIC_BASE_URL``, and every
switch that keeps the CLI off the network.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
STAND_INS = REPO / "tests" / "bin"
DEVELOPER_FALLBACK = Path("/work/tools/node_modules/.bin/claude")
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CLI_TIMEOUT_S = 300.0
"""A loaded 2-core machine starts the CLI in seconds, not minutes: this is only a backstop."""
TOOLS = "Bash,Write,Edit,Read,mcp__nous__recall,mcp__nous__why"


def find_claude() -> Path | None:
    """The real Claude Code CLI, or None (never the stand-in under ``tests/bin``)."""
    named = os.environ.get("NOUS_TEST_CLAUDE")
    if named:
        return Path(named)
    found = shutil.which("claude")
    if found and Path(found).resolve().parent != STAND_INS.resolve():
        return Path(found)
    return DEVELOPER_FALLBACK if DEVELOPER_FALLBACK.exists() else None


def require_claude() -> Path:
    """The CLI, or skip (fail under ``CI=true``)."""
    found = find_claude()
    if found is None:
        message = "the Claude Code CLI is not installed (.ci/run installs it with npm)"
        if IN_CI:
            pytest.fail(message + " (CI=true: never skipped)", pytrace=False)
        pytest.skip(message)
    return found


def nous_program() -> Path:
    """The ``nous`` console script of the test's Python."""
    return Path(sys.executable).parent / "nous"


@dataclass
class ClaudeRun:
    """One finished ``claude -p`` run: exit code, the parsed JSON result, stderr."""

    code: int
    result: dict[str, Any]
    stdout: str
    stderr: str

    @property
    def session_id(self) -> str:
        """The session the CLI ran (its hooks were keyed by it)."""
        return str(self.result.get("session_id"))


def claude_env(base_env: dict[str, str], home: Path, base_url: str) -> dict[str, str]:
    """The environment of one CLI run: a private HOME, the scripted model, no network."""
    env = {k: v for k, v in base_env.items() if k != "CLAUDECODE"}
    env.update(
        HOME=str(home),
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY="test",
        DISABLE_TELEMETRY="1",
        DISABLE_AUTOUPDATER="1",
        DISABLE_ERROR_REPORTING="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        # MCP servers connect before the first request (the default connects in the
        # background), and their tools are offered at once rather than found by ToolSearch:
        # a scripted model calls them in its first reply.
        MCP_CONNECTION_NONBLOCKING="false",
        ENABLE_TOOL_SEARCH="false",
    )
    return env


def run_claude(
    binary: Path,
    project: Path,
    env: dict[str, str],
    prompt: str,
    *,
    tools: str = TOOLS,
    extra: tuple[str, ...] = (),
) -> ClaudeRun:
    """``claude -p PROMPT --output-format json`` in ``project``; its JSON result parsed."""
    command = [
        str(binary),
        "-p",
        prompt,
        "--output-format",
        "json",
        "--permission-mode",
        "acceptEdits",
        "--allowedTools",
        tools,
        *extra,
    ]
    done = subprocess.run(
        command,
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT_S,
        check=False,
    )
    try:
        result = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}
    except ValueError:
        result = {}
    return ClaudeRun(done.returncode, result, done.stdout, done.stderr)


def init_claude(project: Path, env: dict[str, str], *more: str) -> subprocess.CompletedProcess[str]:
    """``nous init claude --root PROJECT`` as a user runs it."""
    return subprocess.run(
        [str(nous_program()), "init", "claude", "--root", str(project), *more],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
