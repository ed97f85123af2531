"""graph.watch.watcher end to end: a running watch() on a real folder, real watchfiles.

Each test finishes a scenario by writing a marker file and collecting until
the marker shows up, so "nothing else was reported" is checked without
sleeping for a guessed time. Every wait is bounded by a timeout, so a broken
watcher fails instead of hanging.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from watchfiles import Change

from graph.models.observe import Observation, ObservationType
from graph.settings import WatchSettings
from graph.watch.changes import Seen, prime, translate_changes
from graph.watch.files import PathFilter
from graph.watch.watcher import FileWatcher

AGENT = "test-watcher"
TIMEOUT_S = 10.0
SETTINGS = WatchSettings(debounce_ms=100, step_ms=20)

CREATED = ObservationType.FILE_CREATED
MODIFIED = ObservationType.FILE_MODIFIED
DELETED = ObservationType.FILE_DELETED
MOVED = ObservationType.FILE_MOVED


class Running:
    """A watcher whose watch() runs in a task, its batches gathered in a queue."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.watcher = FileWatcher(root, SETTINGS, AGENT)
        self.stop = asyncio.Event()
        self.batches: asyncio.Queue[list[Observation]] = asyncio.Queue()
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        async for batch in self.watcher.watch(self.stop):
            await self.batches.put(batch)

    async def started(self) -> Running:
        async with asyncio.timeout(TIMEOUT_S):
            await self.watcher.ready.wait()
        return self

    async def until_marker(self, name: str = "marker.txt") -> list[Observation]:
        """Write a marker file; everything observed up to it, the marker left out."""
        (self.root / name).write_text("marker")
        seen: list[Observation] = []
        async with asyncio.timeout(TIMEOUT_S):
            while not any(o.path == name for o in seen):
                seen.extend(await self.batches.get())
        return [o for o in seen if o.path != name]

    async def collect(self, count: int) -> list[Observation]:
        seen: list[Observation] = []
        async with asyncio.timeout(TIMEOUT_S):
            while len(seen) < count:
                seen.extend(await self.batches.get())
        return seen


Start = Callable[[Path], Awaitable[Running]]


@pytest.fixture
async def start() -> AsyncIterator[Start]:
    running: list[Running] = []

    async def _start(root: Path) -> Running:
        run = Running(root)
        running.append(run)
        return await run.started()

    yield _start
    for run in running:
        run.stop.set()
    for run in running:
        async with asyncio.timeout(TIMEOUT_S):
            await run.task


def summary(observations: list[Observation]) -> list[tuple[str, str | None, str | None]]:
    return sorted((o.type.value, o.path, o.metadata.get("from_path")) for o in observations)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


async def test_priming_knows_what_exists(tmp_path: Path, start: Start) -> None:
    write(tmp_path / "a.md", "a")
    write(tmp_path / "sub" / "b.md", "b")
    write(tmp_path / ".git" / "HEAD", "ref")
    run = await start(tmp_path)
    assert run.watcher.known_paths == {
        "a.md": os.stat(tmp_path / "a.md").st_ino,
        "sub/b.md": os.stat(tmp_path / "sub" / "b.md").st_ino,
    }


async def test_create(tmp_path: Path, start: Start) -> None:
    run = await start(tmp_path)
    write(tmp_path / "notes" / "idea.md", "an idea")
    [obs] = await run.until_marker()

    st = os.stat(tmp_path / "notes" / "idea.md")
    assert obs.type is CREATED
    assert obs.agent_id == AGENT
    assert obs.path == "notes/idea.md"
    assert obs.content_hash == hashlib.sha256(b"an idea").hexdigest()
    assert (obs.size, obs.mtime) == (7, st.st_mtime)
    assert obs.metadata == {"source": "watcher"}
    assert "notes/idea.md" in run.watcher.known_paths


async def test_modify(tmp_path: Path, start: Start) -> None:
    write(tmp_path / "a.md", "old")
    run = await start(tmp_path)
    with (tmp_path / "a.md").open("a") as handle:
        handle.write(" and new")
    [obs] = await run.until_marker()
    assert (obs.type, obs.path) == (MODIFIED, "a.md")
    assert obs.content_hash == hashlib.sha256(b"old and new").hexdigest()


async def test_delete(tmp_path: Path, start: Start) -> None:
    write(tmp_path / "a.md", "a")
    run = await start(tmp_path)
    (tmp_path / "a.md").unlink()
    [obs] = await run.until_marker()
    assert (obs.type, obs.path, obs.content_hash) == (DELETED, "a.md", None)
    assert obs.metadata == {"source": "watcher"}
    assert "a.md" not in run.watcher.known_paths


async def test_move(tmp_path: Path, start: Start) -> None:
    write(tmp_path / "a.md", "moving")
    (tmp_path / "archive").mkdir()
    run = await start(tmp_path)
    os.rename(tmp_path / "a.md", tmp_path / "archive" / "a.md")
    observed = await run.until_marker()
    assert summary(observed) == [("file_moved", "archive/a.md", "a.md")]
    assert observed[0].content_hash == hashlib.sha256(b"moving").hexdigest()
    assert set(run.watcher.known_paths) == {"archive/a.md", "marker.txt"}


async def test_editor_save_by_rename_is_a_modification(tmp_path: Path, start: Start) -> None:
    write(tmp_path / "a.md", "v1")
    run = await start(tmp_path)
    write(tmp_path / ".a.md.swp", "v2")
    os.replace(tmp_path / ".a.md.swp", tmp_path / "a.md")
    observed = await run.until_marker()
    assert summary(observed) == [("file_modified", "a.md", None)]
    assert observed[0].content_hash == hashlib.sha256(b"v2").hexdigest()


async def test_delete_and_recreate_in_one_batch_is_a_modification(
    tmp_path: Path, start: Start
) -> None:
    write(tmp_path / "a.md", "v1")
    run = await start(tmp_path)
    (tmp_path / "a.md").unlink()
    write(tmp_path / "a.md", "v2, longer")
    assert summary(await run.until_marker()) == [("file_modified", "a.md", None)]


async def test_directory_moved(tmp_path: Path, start: Start) -> None:
    write(tmp_path / "drafts" / "x.md", "x")
    write(tmp_path / "drafts" / "deep" / "y.md", "y")
    run = await start(tmp_path)
    os.rename(tmp_path / "drafts", tmp_path / "published")
    assert summary(await run.until_marker()) == [
        ("file_moved", "published/deep/y.md", "drafts/deep/y.md"),
        ("file_moved", "published/x.md", "drafts/x.md"),
    ]
    # the moved tree is watched: a later change inside it is seen
    write(tmp_path / "published" / "deep" / "y.md", "y2")
    assert summary(await run.until_marker("marker2.txt")) == [
        ("file_modified", "published/deep/y.md", None)
    ]


async def test_directory_created_with_files(tmp_path: Path, start: Start) -> None:
    run = await start(tmp_path)
    write(tmp_path / "a" / "b" / "c" / "one.md", "1")
    write(tmp_path / "a" / "b" / "two.md", "2")
    assert summary(await run.until_marker()) == [
        ("file_created", "a/b/c/one.md", None),
        ("file_created", "a/b/two.md", None),
    ]


async def test_directory_brought_in_from_outside(tmp_path: Path, start: Start) -> None:
    root = tmp_path / "root"
    root.mkdir()
    write(tmp_path / "elsewhere" / "x.md", "x")
    run = await start(root)
    shutil.move(tmp_path / "elsewhere", root / "incoming")
    assert summary(await run.until_marker()) == [("file_created", "incoming/x.md", None)]


async def test_directory_deleted_and_moved_out(tmp_path: Path, start: Start) -> None:
    root = tmp_path / "root"
    write(root / "gone" / "x.md", "x")
    write(root / "gone" / "sub" / "y.md", "y")
    write(root / "leaving" / "z.md", "z")
    run = await start(root)
    shutil.rmtree(root / "gone")
    shutil.move(root / "leaving", tmp_path / "left")
    assert summary(await run.until_marker()) == [
        ("file_deleted", "gone/sub/y.md", None),
        ("file_deleted", "gone/x.md", None),
        ("file_deleted", "leaving/z.md", None),
    ]
    assert set(run.watcher.known_paths) == {"marker.txt"}


async def test_ignored_paths_produce_nothing(tmp_path: Path, start: Start) -> None:
    write(tmp_path / ".git" / "config", "[core]")
    run = await start(tmp_path)
    write(tmp_path / ".git" / "x", "object")
    (tmp_path / ".git" / "config").unlink()
    write(tmp_path / "__pycache__" / "y.pyc", "bytecode")
    write(tmp_path / "pkg" / "mod.pyc", "bytecode")
    write(tmp_path / "node_modules" / "left-pad" / "index.js", "js")
    # a file moved out of an ignored tree appears as new
    os.rename(tmp_path / ".git" / "x", tmp_path / "rescued.md")
    assert summary(await run.until_marker()) == [("file_created", "rescued.md", None)]


async def test_symlinks_out_of_the_root_produce_nothing(tmp_path: Path, start: Start) -> None:
    root = tmp_path / "root"
    root.mkdir()
    outside = tmp_path / "outside"
    write(outside / "secret.txt", "s")
    (root / "old-link").symlink_to(outside)  # present before the watch starts
    run = await start(root)
    assert run.watcher.known_paths == {}

    (root / "dir-link").symlink_to(outside)
    (root / "file-link").symlink_to(outside / "secret.txt")
    write(outside / "secret.txt", "changed")
    write(outside / "new.txt", "new")
    assert await run.until_marker() == []


async def test_binary_file_is_flagged(tmp_path: Path, start: Start) -> None:
    run = await start(tmp_path)
    (tmp_path / "img.png").write_bytes(b"\x89PNG\x00\x00")
    [obs] = await run.until_marker()
    assert (obs.type, obs.metadata) == (CREATED, {"source": "watcher", "binary": True})


async def test_stop_event_ends_the_iterator_promptly(tmp_path: Path) -> None:
    run = await Running(tmp_path).started()
    began = time.monotonic()
    run.stop.set()
    async with asyncio.timeout(2):
        await run.task
    assert time.monotonic() - began < 1.0
    assert not run.watcher.ready.is_set()


async def test_cancelling_the_watcher_leaves_the_stop_event_alone(tmp_path: Path) -> None:
    run = await Running(tmp_path).started()
    run.task.cancel()
    async with asyncio.timeout(TIMEOUT_S):
        with pytest.raises(asyncio.CancelledError):
            await run.task
    assert not run.stop.is_set()


async def test_one_watch_at_a_time(tmp_path: Path, start: Start) -> None:
    run = await start(tmp_path)
    with pytest.raises(RuntimeError):
        await anext(run.watcher.watch(asyncio.Event()))


# Translation of synthetic batches against the real disk: cases a live kernel
# produces only by timing luck.


def translate(
    root: Path, changes: list[tuple[Change, str]], known: dict[str, Seen]
) -> list[tuple[str, str | None, str | None]]:
    result = translate_changes(
        [(c, str(root / p)) for c, p in changes],
        root=root.resolve(),
        known=known,
        path_filter=PathFilter([".git"]),
        agent_id=AGENT,
        max_hash_bytes=1024,
    )
    return summary(result.observations)


def test_rename_over_an_existing_file_is_a_move(tmp_path: Path) -> None:
    write(tmp_path / "a.md", "a")
    write(tmp_path / "b.md", "b")
    known = prime(tmp_path, PathFilter([]))
    os.rename(tmp_path / "a.md", tmp_path / "b.md")
    changes = [(Change.deleted, "a.md"), (Change.added, "b.md")]
    assert translate(tmp_path, changes, known) == [("file_moved", "b.md", "a.md")]


def test_file_replaced_by_a_symlink_is_deleted(tmp_path: Path) -> None:
    write(tmp_path / "a.md", "a")
    write(tmp_path / "b.md", "b")
    known = prime(tmp_path, PathFilter([]))
    (tmp_path / "a.md").unlink()
    (tmp_path / "a.md").symlink_to(tmp_path / "b.md")
    assert translate(tmp_path, [(Change.added, "a.md")], known) == [("file_deleted", "a.md", None)]


def test_a_repeated_add_of_an_unchanged_file_says_nothing(tmp_path: Path) -> None:
    write(tmp_path / "d" / "a.md", "a")
    known = prime(tmp_path, PathFilter([]))
    changes = [(Change.added, "d"), (Change.added, "d/a.md")]
    assert translate(tmp_path, changes, known) == []


def test_unknown_deletions_and_vanished_adds_say_nothing(tmp_path: Path) -> None:
    changes = [(Change.added, ".a.md.tmp"), (Change.deleted, ".a.md.tmp")]
    assert translate(tmp_path, changes, {}) == []


def test_same_inode_with_new_content_is_not_a_move(tmp_path: Path) -> None:
    write(tmp_path / "a.md", "a")
    known = prime(tmp_path, PathFilter([]))
    os.rename(tmp_path / "a.md", tmp_path / "b.md")
    os.utime(tmp_path / "b.md", ns=(0, 10**9))  # as if rewritten after the move
    changes = [(Change.deleted, "a.md"), (Change.added, "b.md")]
    assert translate(tmp_path, changes, known) == [
        ("file_created", "b.md", None),
        ("file_deleted", "a.md", None),
    ]


async def test_missing_root_raises(tmp_path: Path) -> None:
    watcher = FileWatcher(tmp_path / "nope", SETTINGS, AGENT)
    with pytest.raises(FileNotFoundError):
        async with asyncio.timeout(TIMEOUT_S):
            await anext(watcher.watch(asyncio.Event()))
