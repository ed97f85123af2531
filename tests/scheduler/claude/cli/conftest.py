"""The real Claude Code CLI, a scripted model, a project with Nous's hooks, for one agent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.anthropic_stub import AnthropicStub
from tests.support.claude_cli import claude_env, init_claude, require_claude


@pytest.fixture
def claude_bin() -> Path:
    """The real CLI (skipped without one; failed under CI=true)."""
    return require_claude()


@pytest.fixture
def model() -> Iterator[AnthropicStub]:
    """The scripted Anthropic Messages server the CLI talks to."""
    with AnthropicStub() as stub:
        yield stub


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project folder."""
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


@pytest.fixture
def cli_env(
    tmp_path: Path, neo4j_env: dict[str, str], agent_id: str, model: AnthropicStub
) -> dict[str, str]:
    """The CLI's environment: a private HOME, the scripted model, the test's agent and Neo4j."""
    home = tmp_path / "home"
    home.mkdir()
    return claude_env({**neo4j_env, "NOUS_AGENT_ID": agent_id}, home, model.base_url)


@pytest.fixture
def hooked(project: Path, cli_env: dict[str, str]) -> Path:
    """The project after `nous init claude` (hooks in .claude/settings.json, .mcp.json)."""
    done = init_claude(project, cli_env)
    assert done.returncode == 0, done.stderr
    return project
