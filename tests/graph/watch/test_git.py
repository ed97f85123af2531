"""Reading git history: incremental, bounded, and calm with hostile repositories."""

from __future__ import annotations

from pathlib import Path

from graph.settings_lean import git_environment
from graph.watch.git import MAX_FILES, GitLog, read_history
from tests.support.git_repo import EMAIL, commit, git, new_repo


async def _read(root: Path, seen: str | None = None, limit: int = 50, **env: str) -> GitLog:
    environ = {**git_environment(), **env}
    return await read_history(root, environ, seen=seen, limit=limit, max_age_days=365, timeout_s=10)


async def test_the_newest_commits_first_then_only_what_is_new(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "r")
    first = commit(
        repo, "retry: MAX_ATTEMPTS is 7\n\nMeasured to the limiter window.", {"retry.py": "7"}
    )
    second = commit(repo, "docs", {"README.md": "hi", "docs/a b.md": "x"}, author="Bo Lee")
    log = await _read(repo)
    assert [c.sha for c in log.commits] == [second, first] and log.head == second
    newest, oldest = log.commits
    assert (oldest.subject, oldest.body) == (
        "retry: MAX_ATTEMPTS is 7",
        "Measured to the limiter window.",
    )
    assert (newest.author, newest.files) == ("Bo Lee", ("README.md", "docs/a b.md"))
    assert EMAIL not in repr(log)
    assert (await _read(repo, seen=second)).commits == ()
    third = commit(repo, "more", {"retry.py": "8"})
    assert [c.sha for c in (await _read(repo, seen=second)).commits] == [third]
    assert [c.sha for c in (await _read(repo, limit=1)).commits] == [third]


async def test_a_rewritten_history_is_read_again(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "r")
    commit(repo, "one", {"a": "1"})
    log = await _read(repo, seen="0" * 40)  # a sha the repository does not have
    assert len(log.commits) == 1 and log.problem is None


async def test_hostile_repositories_give_no_commits_and_say_why(tmp_path: Path) -> None:
    empty = new_repo(tmp_path / "empty")
    assert (await _read(empty)).problem == "the repository has no commits yet"
    plain = tmp_path / "plain"
    plain.mkdir()
    assert "not a git repository" in ((await _read(plain)).problem or "")
    no_git = await _read(tmp_path, PATH=str(tmp_path / "nowhere"))
    assert no_git.problem == "git is not installed (or not on PATH)"


async def test_odd_paths_huge_messages_and_many_files(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "r")
    files: dict[str | bytes, str] = {f"v/{i}.txt": "x" for i in range(MAX_FILES + 50)}
    files[b"odd\xff.txt"] = "x"
    files["\u202eevil\n.txt"] = "x"
    message = "vendor\n\n" + "why " * 200_000 + "\x1e" + "f" * 40
    commit(repo, message, files)
    log = await _read(repo)
    [only] = log.commits
    assert only.subject == "vendor" and len(only.body) > 100_000  # the door cuts it, not the reader
    assert len(only.files) == MAX_FILES and log.skipped_paths == 1
    assert git(repo, "rev-parse", "HEAD") == log.head
