"""The daemon end to end: a real process, a temporary root, the real Neo4j, signals."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from graph.store.memory import Memory
from scheduler.cli import main
from tests.support.daemon import QUICK_AND_DRY
from tests.support.daemon import Daemon as SupportDaemon
from tests.support.eventually import eventually
from tests.support.processes import gone

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0


class Daemon(SupportDaemon):
    """``python -m graph.daemon`` in a subprocess, with its output collected."""

    def __init__(
        self, root: Path, agent_id: str, env: dict[str, str], log: Path, **extra: str
    ) -> None:
        super().__init__(root, agent_id, {**env, **QUICK_AND_DRY, **extra}, log, [])

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.close()


@pytest.fixture
def daemon_factory(
    tmp_path: Path, neo4j_env: dict[str, str], agent_id: str
) -> Iterator[type[Daemon]]:
    started: list[Daemon] = []

    class Factory(Daemon):
        def __init__(self, root: Path, **extra: str) -> None:
            log = tmp_path / f"daemon-{len(started)}.log"
            super().__init__(root, agent_id, neo4j_env, log, **extra)
            started.append(self)

    yield Factory
    for daemon in started:
        daemon.kill()


async def test_changes_become_observations_and_sigterm_exits_cleanly(
    tmp_path: Path, memory: Memory, daemon_factory: type[Daemon]
) -> None:
    root = tmp_path / "root"
    (root / "_intake").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "old.md").write_text("before the daemon")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("outside the root")

    daemon = daemon_factory(root)
    # The start rescan is the first look: docs/old.md is the baseline, not a change.
    daemon.wait_for("baseline: 1 files")

    def seen(path: str, kind: str) -> Callable[[], Awaitable[bool]]:
        async def check() -> bool:
            return kind in {o.type.value for o in await memory.observations_for_path(path)}

        return check

    # Each step waits until the daemon has recorded the one before, so the debounce
    # never folds two steps into one change.
    (root / "_intake" / "note.md").write_text("hello")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ignored")
    (root / "link").symlink_to(outside)
    await eventually(seen("_intake/note.md", "file_created"), "note.md created")
    (root / "docs" / "old.md").write_text("edited")
    (root / "_intake" / "note.md").rename(root / "docs" / "note.md")
    await eventually(seen("docs/note.md", "file_moved"), "note.md moved")
    await eventually(seen("docs/old.md", "file_modified"), "old.md edited")
    (root / "docs" / "old.md").unlink()

    async def settled() -> bool:
        files = await memory.file_records()
        return set(files) == {"docs/note.md"}

    await eventually(settled, "the files settled")
    assert daemon.stop() == 0
    out = daemon.output()
    assert "nous stopped:" in out
    recorded = int(out.split("nous stopped: ")[1].split()[0])
    total, _ = await memory.observation_counts()
    assert total == recorded  # every observation the daemon counted is in the graph

    kinds = {o.type.value for o in await memory.observations_for_path("docs/old.md")}
    assert kinds == {"file_modified", "file_deleted"}
    [moved] = await memory.observations_for_path("docs/note.md")
    assert moved.type.value == "file_moved" and moved.metadata["from_path"] == "_intake/note.md"
    assert await memory.observations_for_path(".git/HEAD") == []
    assert await memory.observations_for_path("link/secret.txt") == []


async def test_restart_finds_what_changed_while_stopped(
    tmp_path: Path, memory: Memory, daemon_factory: type[Daemon]
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.md").write_text("a")
    (root / "b.md").write_text("b")
    first = daemon_factory(root)
    first.wait_for("baseline: 2 files")  # the first look: there before, not changes
    assert first.stop(signal.SIGINT) == 0

    (root / "a.md").write_text("a, edited while nobody watched")
    (root / "b.md").unlink()
    (root / "c.md").write_text("c")

    second = daemon_factory(root)
    second.wait_for("observations 3 ")  # not a first look again: each change observed
    assert second.stop() == 0
    assert set(await memory.file_records()) == {"a.md", "c.md"}
    [edit] = await memory.observations_for_path("a.md")
    assert edit.type.value == "file_modified" and edit.metadata["source"] == "rescan"
    assert "baseline:" not in second.output()


async def test_sigterm_during_a_burst_leaves_no_half_batch(
    tmp_path: Path, memory: Memory, daemon_factory: type[Daemon]
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    daemon = daemon_factory(root)
    daemon.wait_for("observations 0 ")
    names = {f"f{i:04}.txt" for i in range(1500)}
    for name in sorted(names):
        (root / name).write_text(name)

    async def writing() -> bool:
        total, _ = await memory.observation_counts()
        return total > 0

    await eventually(writing, "the first batch written")  # stop while the writer is busy
    assert daemon.stop() == 0
    recorded = int(daemon.output().split("nous stopped: ")[1].split()[0])
    total, _ = await memory.observation_counts()
    assert total == recorded
    # No batch was cut in half: every file observed has its File. (A file created in one
    # watcher batch and written in the next has two observations, so not equality.)
    assert 0 < len(await memory.file_records()) <= total
    # And every file is accounted for: what the stop left unrecorded, the next start's
    # rescan finds; nothing is recorded twice.
    again = daemon_factory(root)
    again.wait_for("observations ")

    async def all_recorded() -> bool:
        return set(await memory.file_records()) == names

    await eventually(all_recorded, "all 1500 files recorded", timeout_s=60)
    assert again.stop() == 0
    for name in ("f0000.txt", "f0749.txt", "f1499.txt"):
        kinds = [o.type.value for o in await memory.observations_for_path(name)]
        assert kinds.count("file_created") == 1, kinds


@pytest.mark.parametrize("pack", [False, True], ids=["shipped", "templates-init"])
async def test_the_demo_intake_goes_from_observation_to_pattern_and_lesson(
    tmp_path: Path, memory: Memory, daemon_factory: type[Daemon], pack: bool
) -> None:
    root = tmp_path / "demo"
    shutil.copytree(REPO / "demo", root)
    if pack:
        # `nous templates init` picks the seed knowledge base for the demo, and the
        # daemon finds its .nous/templates.yaml without a setting.
        config = str(REPO / "tests" / "support" / "empty.yaml")
        assert main(["templates", "init", "--root", str(root), "--config", config]) == 0
        written = (root / ".nous" / "templates.yaml").read_text()
        assert written.startswith("# `nous templates init` chose the knowledge_base pack")
    script = tmp_path / "claude.json"
    script.write_text(
        json.dumps(
            {
                "edits": [{"path": "knowledge/filed.md", "content": "filed by the agent\n"}],
                "is_error": True,
                "subtype": "error_during_execution",
                "result": "Error: permission denied while writing the index",
            }
        )
    )
    daemon = daemon_factory(
        root,
        NOUS_EXECUTORS__DRY_RUN="false",
        NOUS_EXECUTORS__CLAUDE_BINARY=str(REPO / "tests" / "bin" / "claude"),
        FAKE_CLAUDE_SCRIPT=str(script),
    )
    daemon.wait_for(f"templates ({root / '.nous' / 'templates.yaml'})" if pack else "templates (")
    # The demo's own four files were there before Nous looked: the baseline, no decision.
    # The drop is in no running execution's working set, so it is a person's change.
    daemon.wait_for("baseline: 4 files")
    (root / "_intake" / "dropped.md").write_text("# Dropped in while Nous watched\n")

    async def learned_from_the_drop() -> bool:
        rows = await memory.read("audit/recent_decisions", limit=50)
        ids = [r["id"] for r in rows if r["path"] == "_intake/dropped.md"]
        return bool(ids) and bool(await memory.learning.lessons_for(ids[0]))

    await eventually(learned_from_the_drop, "a lesson from the drop", timeout_s=60)
    assert daemon.stop() == 0
    [decision] = [
        r
        for r in await memory.read("audit/recent_decisions", limit=50)
        if r["path"] == "_intake/dropped.md"
    ]
    assert (decision["type"], decision["template"]) == ("act", "process_intake")
    assert decision["outcome_success"] is False
    executions = await memory.read("audit/executions_for_decision", decision_id=decision["id"])
    assert [e["failure_type"] for e in executions] == ["permission_error"] * 3
    assert {"permission_failure", "confidence_too_high"} <= {
        lesson.type for lesson in await memory.learning.lessons_for(decision["id"])
    }
    pattern = await memory.learning.pattern("intake:file_created:act:process_intake")
    assert pattern is not None and pattern.total >= 1 and pattern.successes == 0
    # The stand-in's edit (knowledge/filed.md) was observed as its own, and no
    # decision ever considered it.
    own = await memory.observations_for_path("knowledge/filed.md")
    assert own and all(o.caused_by for o in own)
    decided_paths = {r["path"] for r in await memory.read("audit/recent_decisions", limit=100)}
    assert "knowledge/filed.md" not in decided_paths
    assert "_intake/welcome.md" not in decided_paths  # the baseline started nothing


async def test_sigterm_during_an_execution_exits_cleanly_and_leaves_no_child(
    tmp_path: Path, memory: Memory, daemon_factory: type[Daemon]
) -> None:
    root = tmp_path / "root"
    (root / "_intake").mkdir(parents=True)
    child = tmp_path / "child.pid"
    script = tmp_path / "claude.json"
    script.write_text(
        json.dumps({"sleep_s": 60, "spawn_child_sleep_s": 120, "child_pid_file": str(child)})
    )
    daemon = daemon_factory(
        root,
        NOUS_EXECUTORS__DRY_RUN="false",
        NOUS_EXECUTORS__CLAUDE_BINARY=str(REPO / "tests" / "bin" / "claude"),
        FAKE_CLAUDE_SCRIPT=str(script),
        NOUS_SCHEDULE__SHUTDOWN_GRACE_S="1",
    )
    daemon.wait_for("decisions 0")
    (root / "_intake" / "long.md").write_text("a long job\n")

    async def running() -> bool:
        return child.exists() and bool(child.read_text())

    await eventually(running, "the stand-in running", timeout_s=30)
    assert daemon.stop() == 0
    assert await gone(int(child.read_text()))


def test_help_explains_every_option() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "graph.daemon", "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
        check=True,
    )
    for option in ("--root", "--config", "--agent-id", "--dry-run", "--log-level"):
        assert option in done.stdout


def test_a_bad_template_file_exits_2_naming_file_and_template(tmp_path: Path) -> None:
    templates = tmp_path / "templates.yaml"
    templates.write_text(
        "templates:\n"
        "  tidy:\n"
        "    version: 1\n"
        "    title: Tidy\n"
        "    trigger: {observation_types: [file_created]}\n"
        "    target: claude_code\n"
        "    prompt_template: 'Tidy {{ nowhere }}'\n"
    )
    config = tmp_path / "nous.yaml"
    config.write_text(f"templates_file: {templates}\n")
    done = subprocess.run(
        [sys.executable, "-m", "graph.daemon", "--root", str(tmp_path), "--config", str(config)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "NEO4J_URI": "bolt://127.0.0.1:9"},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert str(templates) in done.stderr and "tidy" in done.stderr
    assert "nowhere" in done.stderr
