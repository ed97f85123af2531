"""bench/replay.py on a small generated history: three tiny versions, a real dry-run daemon."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

from bench.replay import replay
from bench.replay_report import match, report
from bench.replay_source import upgrade, version_tree
from graph.store.memory import Memory
from tests.support.daemon import QUICK_AND_DRY

TEST_ADD = "from tiny.core import add\n\n\ndef test_add():\n    assert add({}, 2) == {}\n"
TEST_SUB = "from tiny.extra import sub\n\n\ndef test_sub():\n    assert sub(3, 1) == 2\n"
VERSIONS: dict[str, dict[str, str]] = {
    "1.0": {
        "pyproject.toml": '[project]\nname = "tiny"\nversion = "1.0"\n',
        "tiny/__init__.py": "",
        "tiny/core.py": "def add(a, b):\n    return a + b\n",
        "tests/test_core.py": TEST_ADD.format(1, 3),
        "docs/index.md": "# tiny\n",
        "CHANGES.md": "# 1.0\n",
    },
    "1.1": {
        "pyproject.toml": '[project]\nname = "tiny"\nversion = "1.1"\n',
        "tiny/__init__.py": "",
        "tiny/core.py": "def add(a, b):\n    return b + a\n",
        "tiny/extra.py": "def sub(a, b):\n    return a - b\n",
        "tests/test_core.py": TEST_ADD.format(1, 3),
        "docs/index.md": "# tiny\n",
        "CHANGES.md": "# 1.1\n\n# 1.0\n",
    },
    "1.2": {
        "pyproject.toml": '[project]\nname = "tiny"\nversion = "1.2"\n',
        "tiny/__init__.py": "",
        "tiny/core.py": "def add(a, b):\n    return b + a\n",
        "tiny/extra.py": "def sub(a, b):\n    return a - b\n",
        "tests/test_core.py": TEST_ADD.format(2, 4),
        "tests/test_extra.py": TEST_SUB,
        "CHANGES.md": "# 1.2\n\n# 1.1\n\n# 1.0\n",
    },
}


def _trees(tmp_path: Path) -> list[tuple[str, dict[str, Path]]]:
    trees = []
    for version, files in VERSIONS.items():
        top = tmp_path / "releases" / f"tiny-{version}"
        for relative, text in files.items():
            (top / relative).parent.mkdir(parents=True, exist_ok=True)
            (top / relative).write_text(text)
        (top / "tiny" / "__pycache__").mkdir()
        (top / "tiny" / "__pycache__" / "core.cpython-311.pyc").write_bytes(b"\0ignored")
        trees.append((version, version_tree(top, lambda p: "__pycache__" in p.split("/"))))
    return trees


def test_an_upgrade_adds_rewrites_and_deletes(tmp_path: Path) -> None:
    (old_name, old), (new_name, new) = _trees(tmp_path)[:2]
    root = tmp_path / "root"
    root.mkdir()
    first = upgrade(root, {}, old, old_name)
    assert {c.kind for c in first} == {"created"} and len(first) == 6
    second = upgrade(root, old, new, new_name)
    assert sorted((c.path, c.kind) for c in second) == [
        ("CHANGES.md", "modified"),
        ("pyproject.toml", "modified"),
        ("tiny/core.py", "modified"),
        ("tiny/extra.py", "created"),
    ]
    assert (root / "tiny" / "core.py").read_text() == VERSIONS["1.1"]["tiny/core.py"]
    assert not (root / "tiny" / "__pycache__").exists()


async def test_every_change_of_a_generated_history_is_observed_once(
    tmp_path: Path, memory: Memory, neo4j_env: dict[str, str]
) -> None:
    env = {**neo4j_env, **QUICK_AND_DRY}
    workdir = tmp_path / "work"
    workdir.mkdir()
    result = await replay(_trees(tmp_path), workdir, memory, env, settle_s=120.0, quiet_s=1.0)
    # The first version is the baseline: written before the start, observed by nothing.
    assert result.baseline == 6
    kinds = sorted(c.kind for c in result.changes)
    assert kinds.count("created") == 2 and kinds.count("deleted") == 1
    assert kinds.count("modified") == 6
    matched = match(result.changes, result.observations)
    assert (matched.once, matched.missing, matched.extra) == (9, 0, 0), matched.examples
    # Each release is one burst: at most one run of each command.
    assert [r.version for r in result.releases] == ["1.1", "1.2"]
    assert all(n == 1 for r in result.releases for n in r.runs.values()), result.releases
    assert result.decisions, "the daemon decided on nothing"
    out = io.StringIO()
    with redirect_stdout(out):
        report(result)
    printed = out.getvalue()
    assert "changes made: 9 (2 created, 1 deleted, 6 modified) in 2 versions" in printed
    assert "changes observed once 9, never 0, more than once 0" in printed
    assert "baseline: 6 files of the first version, acted on by nothing" in printed
    assert "PASS  at most one run of each command per release written (most 1)" in printed
    assert "PASS  every change observed once" in printed
    assert "log lines by level:" in printed and "INFO" in printed
