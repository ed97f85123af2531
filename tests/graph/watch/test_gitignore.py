"""The root's .gitignore: what git leaves out, the watch leaves out (issue 55)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from cognition.act.attribution import ActiveExecutions
from graph.models import ObservationType
from graph.settings import DEFAULT_IGNORE_PATTERNS, Settings
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from graph.watch.gitignore import MAX_BYTES, GitIgnore
from graph.watch.rescan import rescan
from scheduler.compose.daemon import build_intake

RULES = """
# build output
/dist
build/
*.log
!keep.log
docs/_build
**/generated/**
secret\\ name.txt
\\#notes
tmp/*
!tmp/keep.txt
"""


@pytest.mark.parametrize(
    ("path", "ignored"),
    [
        ("dist/app.js", True),
        ("pkg/dist/app.js", False),  # "/dist" is anchored at the root
        ("build/lib/x.py", True),
        ("pkg/build/x.py", True),  # "build/" is a folder at any depth
        ("build", False),  # ... and a folder only: a file named build is kept
        ("app.log", True),
        ("logs/sub/app.log", True),
        ("keep.log", False),  # re-included by a later "!"
        ("docs/_build/index.html", True),
        ("src/docs/_build/index.html", False),
        ("a/generated/b/c.py", True),
        ("secret name.txt", True),
        ("#notes", True),
        ("tmp/a.txt", True),
        ("tmp/keep.txt", False),
        ("src/main.py", False),
        ("README.md", False),
    ],
)
def test_git_rules(path: str, ignored: bool) -> None:
    assert GitIgnore(RULES.splitlines()).is_ignored(path) is ignored


def test_nothing_below_an_excluded_folder_comes_back() -> None:
    # git: "It is not possible to re-include a file if a parent directory of that file is excluded."
    rules = GitIgnore(["vendor/", "!vendor/mine.py"])
    assert rules.is_ignored("vendor/mine.py")


def test_an_allowlist_gitignore_keeps_what_it_allows() -> None:
    # A notes vault that ignores everything but Markdown must not go blind.
    rules = GitIgnore(["/*", "!*.md", "!/notes/"])
    assert not rules.is_ignored("todo.md")
    assert not rules.is_ignored("notes/idea.txt")
    assert rules.is_ignored("scratch.txt")


def test_read_refuses_what_is_not_a_small_regular_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert GitIgnore.read(tmp_path) is None  # none at all: nothing to say
    outside = tmp_path / "elsewhere"
    outside.write_text("*\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / ".gitignore").symlink_to(outside)
    with caplog.at_level(logging.WARNING):
        assert GitIgnore.read(root) is None
    (root / ".gitignore").unlink()
    os.mkfifo(root / ".gitignore")  # O_NONBLOCK: a FIFO cannot hang the start
    assert GitIgnore.read(root) is None
    (root / ".gitignore").unlink()
    (root / ".gitignore").write_bytes(b"x\n" * (MAX_BYTES // 2 + 1))
    assert GitIgnore.read(root) is None
    assert sum(".gitignore is left out" in r.getMessage() for r in caplog.records) == 3
    (root / ".gitignore").write_bytes(b"\xff\xfe*.bin\n\x00odd\n")
    read = GitIgnore.read(root)
    assert read is not None and read.is_ignored("x.bin") is False  # undecodable line: no rule


async def test_the_index_sync_leaves_out_what_git_leaves_out(
    tmp_path: Path, memory: Memory
) -> None:
    (tmp_path / ".gitignore").write_text("dist/\n*.log\n")
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "bundle.js").write_text("x")
    (tmp_path / "run.log").write_text("x")
    (tmp_path / "app.py").write_text("x = 1\n")
    path_filter = PathFilter(DEFAULT_IGNORE_PATTERNS, GitIgnore.read(tmp_path))
    result = await rescan(tmp_path, memory, path_filter, max_hash_bytes=1 << 20)
    assert {o.path: o.type for o in result.observations} == {
        ".gitignore": ObservationType.FILE_CREATED,
        "app.py": ObservationType.FILE_CREATED,
    }


async def test_the_daemon_watch_and_sync_share_the_roots_gitignore(
    tmp_path: Path, memory: Memory
) -> None:
    (tmp_path / ".gitignore").write_text("target/\n")
    on = Settings(agent_id=memory.agent_id, intake={"spool": False})
    _, watcher, index_sync = build_intake(on, tmp_path, memory, ActiveExecutions(grace_s=1.0))
    assert watcher.path_filter is index_sync.path_filter
    assert watcher.path_filter.is_ignored("target/debug/app")
    off = on.model_copy(update={"watch": on.watch.model_copy(update={"gitignore": False})})
    _, watcher, _ = build_intake(off, tmp_path, memory, ActiveExecutions(grace_s=1.0))
    assert not watcher.path_filter.is_ignored("target/debug/app")
