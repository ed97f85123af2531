"""Fixtures of the act tests: the shipped action templates, a root and environment for executors."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from cognition.act.templates import TemplateRegistry, load_templates


@pytest.fixture(scope="module")
def registry() -> TemplateRegistry:
    return load_templates(None)


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
