"""The first look at a root is its baseline: what was there is recorded, not acted on."""

from __future__ import annotations

import os
from pathlib import Path

from graph.models import ObservationType
from graph.settings import DEFAULT_IGNORE_PATTERNS
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from graph.watch.rescan import BASELINE_EVENT, rescan

FILTER = PathFilter(DEFAULT_IGNORE_PATTERNS)


async def _look(root: Path, memory: Memory) -> dict[str, ObservationType]:
    result = await rescan(root, memory, FILTER, max_hash_bytes=1 << 20, baseline=True)
    await memory.record_observations(result.observations)
    return {o.path or "": o.type for o in result.observations}


async def test_the_first_look_records_every_file_and_observes_none(
    tmp_path: Path, memory: Memory
) -> None:
    for n in range(1000):
        (tmp_path / f"m{n % 10}").mkdir(exist_ok=True)
        (tmp_path / f"m{n % 10}" / f"f{n}.py").write_text(f"x = {n}\n")
    result = await rescan(tmp_path, memory, FILTER, max_hash_bytes=1 << 20, baseline=True)
    assert result.observations == [] and result.baseline == 1000
    assert len(await memory.file_records()) == 1000
    assert await memory.observation_counts() == (0, 0)
    [event] = await memory.events.events(BASELINE_EVENT, 5)
    assert event.data["files"] == 1000 and event.data["root"] == str(tmp_path)

    # Unchanged since Nous last saw them: nothing; a changed file after the baseline: a change.
    (tmp_path / "m3" / "f3.py").write_text("x = 'edited'\n")
    (tmp_path / "new.py").write_text("y = 1\n")
    assert await _look(tmp_path, memory) == {
        "m3/f3.py": ObservationType.FILE_MODIFIED,
        "new.py": ObservationType.FILE_CREATED,
    }
    assert len(await memory.events.events(BASELINE_EVENT, 5)) == 1


async def test_files_made_while_stopped_after_an_empty_first_look_are_changes(
    tmp_path: Path, memory: Memory
) -> None:
    assert await _look(tmp_path, memory) == {}
    [event] = await memory.events.events(BASELINE_EVENT, 5)
    assert event.data["files"] == 0
    (tmp_path / "a.py").write_text("a = 1\n")
    assert await _look(tmp_path, memory) == {"a.py": ObservationType.FILE_CREATED}


async def test_an_odd_name_is_still_reported_on_the_first_look(
    tmp_path: Path, memory: Memory
) -> None:
    (tmp_path / "plain.md").write_text("text")
    (tmp_path / os.fsdecode(b"bad\xffname.md")).write_text("text")
    found = await _look(tmp_path, memory)
    assert ObservationType.FILE_CREATED not in found.values()
    assert list(found.values()) == [ObservationType.EXTERNAL_EVENT]
    assert set(await memory.file_records()) == {"plain.md"}


async def test_a_name_with_a_line_break_is_odd_and_the_rest_is_still_recorded(
    tmp_path: Path, memory: Memory
) -> None:
    # Legal on POSIX, refused by every path Nous keeps: one such name once aborted the sync.
    (tmp_path / "plain.md").write_text("text")
    (tmp_path / "two\nlines.md").write_text("text")
    (tmp_path / "tab\there").mkdir()
    (tmp_path / "tab\there" / "inner.md").write_text("text")
    result = await rescan(tmp_path, memory, FILTER, max_hash_bytes=1 << 20, baseline=True)
    assert result.baseline == 1
    assert set(await memory.file_records()) == {"plain.md"}
    odd = [o for o in result.observations if o.type is ObservationType.EXTERNAL_EVENT]
    names = {o.metadata["name"] for o in odd}
    assert names == {"two\\x0alines.md", "tab\\x09here"}


async def test_without_a_baseline_the_first_look_observes_every_file(
    tmp_path: Path, memory: Memory
) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")
    result = await rescan(tmp_path, memory, FILTER, max_hash_bytes=1 << 20)
    assert [o.type for o in result.observations] == [ObservationType.FILE_CREATED]
    assert result.baseline is None
