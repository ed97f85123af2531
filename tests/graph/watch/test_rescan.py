"""Rescan: what changed while nobody watched is found by comparing the disk with File nodes."""

from __future__ import annotations

import os
from pathlib import Path

from graph.models import ObservationType
from graph.settings import DEFAULT_IGNORE_PATTERNS
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from graph.watch.rescan import rescan

FILTER = PathFilter(DEFAULT_IGNORE_PATTERNS)


async def _sync(root: Path, memory: Memory) -> dict[str, ObservationType]:
    result = await rescan(root, memory, FILTER, max_hash_bytes=1 << 20)
    await memory.record_observations(result.observations)
    return {o.path or "": o.type for o in result.observations}


async def test_first_rescan_observes_every_file_and_ignores_the_rest(
    tmp_path: Path, memory: Memory
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("a")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref")
    (tmp_path / "b.pyc").write_bytes(b"\0")
    assert await _sync(tmp_path, memory) == {"docs/a.md": ObservationType.FILE_CREATED}
    assert await _sync(tmp_path, memory) == {}  # nothing changed, nothing observed


async def test_changes_made_while_stopped_are_found(tmp_path: Path, memory: Memory) -> None:
    for name in ("keep.md", "edit.md", "gone.md", "move.md", "touch.md"):
        (tmp_path / name).write_text(f"content of {name}")
    await _sync(tmp_path, memory)

    (tmp_path / "edit.md").write_text("edited")
    (tmp_path / "gone.md").unlink()
    (tmp_path / "move.md").rename(tmp_path / "moved.md")
    (tmp_path / "new.md").write_text("new")
    stat = (tmp_path / "touch.md").stat()
    os.utime(tmp_path / "touch.md", (stat.st_atime, stat.st_mtime + 10))

    found = await _sync(tmp_path, memory)
    assert found == {
        "edit.md": ObservationType.FILE_MODIFIED,
        "gone.md": ObservationType.FILE_DELETED,
        "moved.md": ObservationType.FILE_MOVED,
        "new.md": ObservationType.FILE_CREATED,
    }
    files = await memory.file_records()
    assert set(files) == {"keep.md", "edit.md", "moved.md", "new.md", "touch.md"}
    # The touch was stored, so the next rescan neither hashes nor observes it.
    again = await rescan(tmp_path, memory, FILTER, max_hash_bytes=1 << 20)
    assert again.observations == [] and again.files_hashed == 0


async def test_newly_ignored_files_are_not_called_deleted(tmp_path: Path, memory: Memory) -> None:
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "out.txt").write_text("x")
    await _sync(tmp_path, memory)
    narrower = PathFilter([*DEFAULT_IGNORE_PATTERNS, "build/"])
    result = await rescan(tmp_path, memory, narrower, max_hash_bytes=1 << 20)
    assert result.observations == []


async def test_a_symlink_out_of_the_root_is_not_observed(tmp_path: Path, memory: Memory) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    root = tmp_path / "root"
    root.mkdir()
    (root / "link").symlink_to(outside)
    (root / "file-link").symlink_to(outside / "secret.txt")
    assert await _sync(root, memory) == {}
