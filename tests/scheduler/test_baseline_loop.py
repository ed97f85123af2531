"""The first start on a repository is its baseline: nothing acts, nothing waits in a queue.

A code repository of 1,000 files, the pack ``nous templates init`` picks, and
the decision loop as the daemon builds it (dry run): the first look records
the files and starts no action; a file changed after it is acted on.
"""

from __future__ import annotations

import os
from pathlib import Path

from graph.store.memory import Memory
from scheduler.cli import main
from tests.support.loop_rig import loop_rig, loop_settings
from tests.support.packs import make_tree

REPO = Path(__file__).resolve().parents[2]
EMPTY = REPO / "tests" / "support" / "empty.yaml"


def _repository(root: Path, size: int) -> Path:
    files = {"pyproject.toml": "[project]\nname = 'big'\n", "big/__init__.py": ""}
    files |= {f"tests/test_m{n}.py": f"def test_{n}():\n    pass\n" for n in range(10)}
    files |= {f"big/m{n}.py": f"VALUE = {n}\n" for n in range(size - len(files))}
    return make_tree(root, files)


async def test_the_first_start_on_a_thousand_files_acts_on_none(
    tmp_path: Path, memory: Memory
) -> None:
    root = _repository(tmp_path / "big", 1000)
    assert main(["templates", "init", "--root", str(root), "--config", str(EMPTY)]) == 0
    settings = loop_settings(root, REPO / "tests" / "bin" / "claude", **{"executors.dry_run": True})
    env = {"PATH": os.environ.get("PATH", "")}
    async with loop_rig(settings, memory, root, env, grace_s=0.5) as rig:
        rig.index_sync.baseline = settings.watch.baseline  # as the daemon builds it: on
        await rig.observe()
        report = await rig.tick_and_act()
        assert rig.index_sync.last_result is not None
        assert rig.index_sync.last_result.baseline == 1000
        assert report.decisions == [] and report.outcomes == []
        assert await memory.observation_counts() == (0, 0)  # nothing queued for later either
        assert rig.runtime.loop.decided == 0

        (root / "big" / "m7.py").write_text("VALUE = 'seven'\n")
        await rig.observe()
        report = await rig.tick_and_act()
        [decision] = report.decisions
        assert (decision.path, decision.template) == ("big/m7.py", "run_tests_for_changed_code")
