"""graph.watch.files on a real file system: ignore rules, containment, inspection, walks."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from graph.errors import PathOutsideRootError
from graph.settings import DEFAULT_IGNORE_PATTERNS
from graph.watch.files import PathFilter, inspect_file, walk_files

# Seed 001's ignore list, exactly as the seed gives it.
SEED_001_PATTERNS = [
    ".git",
    ".git/**",
    "__pycache__",
    "__pycache__/**",
    ".venv",
    ".venv/**",
    "*.pyc",
    ".DS_Store",
    "logs/",
    "logs/**",
    "*.db",
    "*.db-journal",
    "node_modules",
    "node_modules/**",
]


@pytest.mark.parametrize(
    ("path", "ignored"),
    [
        ("", False),
        (".git", True),
        (".git/config", True),
        ("vendor/lib/.git/HEAD", True),
        (".github/workflows/ci.yml", False),
        (".gitignore", False),
        ("a.git", False),
        ("__pycache__", True),
        ("pkg/__pycache__/mod.cpython-311.pyc", True),
        (".venv/lib/site.py", True),
        ("mod.pyc", True),
        ("pkg/mod.pyc", True),
        ("mod.pyc.txt", False),
        ("mod.py", False),
        ("docs/.DS_Store", True),
        ("logs", True),
        ("logs/app.log", True),
        ("service/logs/today.log", True),
        ("logs.txt", False),
        ("mylogs/app.log", False),
        ("data.db", True),
        ("data.db-journal", True),
        ("data.dbx", False),
        ("node_modules/left-pad/index.js", True),
        ("web/node_modules/x/y.js", True),
        ("src/main.py", False),
        ("knowledge/notes.md", False),
    ],
)
def test_seed_001_patterns(path: str, ignored: bool) -> None:
    assert PathFilter(SEED_001_PATTERNS).is_ignored(path) is ignored


@pytest.mark.parametrize(
    ("patterns", "path", "ignored"),
    [
        # a '/' in the middle anchors the pattern at the root
        (["docs/build"], "docs/build", True),
        (["docs/build"], "docs/build/index.html", True),
        (["docs/build"], "src/docs/build/index.html", False),
        (["docs/build/"], "docs/build/x/y.html", True),
        (["docs/build/**"], "docs/build", True),
        # '*' never crosses a '/' in an anchored pattern
        (["src/*.tmp"], "src/a.tmp", True),
        (["src/*.tmp"], "src/sub/a.tmp", False),
        (["src/*"], "src/sub/a.tmp", True),
        # a leading '/' anchors too
        (["/dist"], "dist/app.js", True),
        (["/dist"], "pkg/dist/app.js", False),
        # '**' in the middle: any number of directories
        (["a/**/b"], "a/b", True),
        (["a/**/b"], "a/x/y/b/c.txt", True),
        (["a/**/b"], "x/a/b", False),
        # trailing '/**' on a name: that name anywhere, and everything below
        (["build/**"], "pkg/build/out.o", True),
        # character classes and '?'
        (["*.sw[op]"], "notes/.a.md.swp", True),
        (["?.txt"], "ab.txt", False),
        # case-sensitive
        ([".DS_Store"], ".ds_store", False),
        # blank patterns, and '/' alone, ignore nothing
        (["", "/", "  "], "anything/at/all.txt", False),
        ([], "x", False),
    ],
)
def test_pattern_shapes(patterns: list[str], path: str, ignored: bool) -> None:
    assert PathFilter(patterns).is_ignored(path) is ignored


def test_default_patterns_cover_nous_state() -> None:
    path_filter = PathFilter(DEFAULT_IGNORE_PATTERNS)
    assert path_filter.is_ignored(".nous/neo4j/data/x")
    assert not path_filter.is_ignored("nous/notes.md")


@pytest.mark.parametrize(
    ("path", "ignored"),
    [
        # What a suite, lint or build run writes: never a change of its own (issue 55).
        (".hypothesis/constants/0fb3f742b440b1eb", True),
        (".pytest_cache/v/cache/lastfailed", True),
        ("pkg/.mypy_cache/3.11/x.json", True),
        (".ruff_cache/0.6.0/123", True),
        (".tox/py311/log/x.log", True),
        ("sqlite_utils.egg-info/PKG-INFO", True),
        ("htmlcov/index.html", True),
        (".coverage", True),
        (".coverage.host.123.456", True),
        # ... and nothing a person writes that merely looks alike.
        ("docs/coverage.md", False),
        ("hypothesis/notes.md", False),
        ("src/egg_info.py", False),
        (".coveragerc", False),
    ],
)
def test_default_patterns_leave_out_tool_caches(path: str, ignored: bool) -> None:
    assert PathFilter(DEFAULT_IGNORE_PATTERNS).is_ignored(path) is ignored


def test_inspect_text_file(tmp_path: Path) -> None:
    content = b"hello, world\n"
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_bytes(content)

    state = inspect_file(tmp_path, "notes/a.md", max_hash_bytes=1024)

    assert state is not None
    st = os.stat(tmp_path / "notes" / "a.md")
    assert state.path == "notes/a.md"
    assert state.content_hash == hashlib.sha256(content).hexdigest()
    assert state.size == len(content)
    assert state.mtime == st.st_mtime
    assert state.inode == st.st_ino
    assert state.binary is False
    assert state.error is None


def test_inspect_binary_file(tmp_path: Path) -> None:
    content = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    (tmp_path / "img.png").write_bytes(content)
    state = inspect_file(tmp_path, "img.png", max_hash_bytes=1024)
    assert state is not None
    assert state.binary is True
    assert state.content_hash == hashlib.sha256(content).hexdigest()


def test_nul_after_first_8_kib_is_not_binary(tmp_path: Path) -> None:
    (tmp_path / "log.txt").write_bytes(b"a" * 8192 + b"\x00")
    state = inspect_file(tmp_path, "log.txt", max_hash_bytes=1 << 20)
    assert state is not None
    assert state.binary is False


def test_hash_limit(tmp_path: Path) -> None:
    (tmp_path / "big.bin").write_bytes(b"\x00" + b"x" * 99)
    (tmp_path / "exact.txt").write_bytes(b"y" * 100)

    big = inspect_file(tmp_path, "big.bin", max_hash_bytes=99)
    exact = inspect_file(tmp_path, "exact.txt", max_hash_bytes=100)

    assert big is not None
    assert (big.content_hash, big.size, big.binary, big.error) == (None, 100, True, None)
    assert exact is not None
    assert exact.content_hash == hashlib.sha256(b"y" * 100).hexdigest()


def test_inspect_what_is_not_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "target.txt").write_text("t")
    (tmp_path / "link.txt").symlink_to(tmp_path / "target.txt")
    os.mkfifo(tmp_path / "pipe")

    assert inspect_file(tmp_path, "vanished.txt", 1024) is None
    assert inspect_file(tmp_path, "dir", 1024) is None
    assert inspect_file(tmp_path, "link.txt", 1024) is None
    assert inspect_file(tmp_path, "pipe", 1024) is None
    assert inspect_file(tmp_path, "dir/nothing/here.txt", 1024) is None


def test_inspect_through_a_symlink_out_of_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("s")
    (root / "out").symlink_to(tmp_path / "outside")
    assert inspect_file(root, "out/secret.txt", 1024) is None


@pytest.mark.parametrize("rel_path", ["../x.txt", "/etc/hostname", "a/../../x", "", "."])
def test_inspect_refuses_paths_not_below_the_root(tmp_path: Path, rel_path: str) -> None:
    with pytest.raises(PathOutsideRootError):
        inspect_file(tmp_path, rel_path, 1024)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_gets_an_error_not_an_exception(tmp_path: Path) -> None:
    path = tmp_path / "locked.txt"
    path.write_text("secret")
    path.chmod(0)
    try:
        state = inspect_file(tmp_path, "locked.txt", 1024)
    finally:
        path.chmod(0o600)
    assert state is not None
    assert state.content_hash is None
    assert state.error is not None
    assert state.size == 6


def _tree(root: Path) -> None:
    for rel in [
        "top.txt",
        "src/a.py",
        "src/__pycache__/a.cpython-311.pyc",
        "src/b.pyc",
        ".git/objects/ab/cdef",
        "web/node_modules/x/index.js",
        "docs/deep/er/note.md",
    ]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel)
    (root / "empty").mkdir()


def test_walk_files_skips_ignored_and_symlinks(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    _tree(root)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    (root / "out-dir").symlink_to(outside)
    (root / "out-file").symlink_to(outside / "secret.txt")
    (root / "alias.txt").symlink_to(root / "top.txt")
    (root / "loop").symlink_to(root)

    walked = dict(walk_files(root, PathFilter(SEED_001_PATTERNS)))

    assert sorted(walked) == ["docs/deep/er/note.md", "src/a.py", "top.txt"]
    assert walked["top.txt"].st_ino == os.lstat(root / "top.txt").st_ino


def test_walk_files_does_not_enter_ignored_directories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path)
    listed: list[str] = []
    real_scandir = os.scandir

    def recording_scandir(path: str) -> object:
        listed.append(Path(path).relative_to(tmp_path).as_posix())
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", recording_scandir)
    list(walk_files(tmp_path, PathFilter(SEED_001_PATTERNS)))

    assert sorted(listed) == [".", "docs", "docs/deep", "docs/deep/er", "empty", "src", "web"]


def test_walk_files_under_a_directory(tmp_path: Path) -> None:
    _tree(tmp_path)
    walked = [rel for rel, _ in walk_files(tmp_path, PathFilter(["*.pyc"]), under="src")]
    assert walked == ["src/a.py"]


def test_walk_files_missing_start_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        list(walk_files(tmp_path / "nope", PathFilter([])))
