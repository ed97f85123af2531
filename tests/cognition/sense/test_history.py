"""Git history into memory: Commit nodes TOUCHED their files, read incrementally, secrets out."""

from __future__ import annotations

from pathlib import Path

from cognition.sense.history import HistoryTaken, take_history
from graph.settings_lean import HookHistory, git_environment
from graph.store.commits import CommitStore
from graph.store.memory import Memory
from graph.store.stored_texts import stored_texts
from tests.cognition.sense.test_secrets import AWS_ID, GITHUB
from tests.support.git_repo import EMAIL, commit, new_repo

LIMITS = HookHistory.defaults()


async def _take(memory: Memory, repo: Path) -> HistoryTaken:
    return await take_history(CommitStore(memory), repo, git_environment(), LIMITS, timeout_s=10)


async def test_commits_are_kept_once_with_their_files_and_no_secret(
    memory: Memory, tmp_path: Path
) -> None:
    repo = new_repo(tmp_path / "repo")
    commit(
        repo,
        "retry: MAX_ATTEMPTS is 7\n\nThe limiter's window; do not round it.",
        {"retry.py": "7"},
    )
    leaked = commit(
        repo, f"ci: deploy with {AWS_ID}\n\ntoken {GITHUB}", {"ci/deploy.sh": "x", "retry.py": "8"}
    )
    taken = await _take(memory, repo)
    assert (taken.read, taken.written, taken.head, taken.secrets) == (2, 2, leaked, 1)
    again = await _take(memory, repo)
    assert (again.read, again.written, again.head) == (0, 0, leaked)
    newer = commit(repo, "docs: why", {"README.md": "why"})
    assert (await _take(memory, repo)).written == 1
    assert await CommitStore(memory).seen_head() == newer

    texts = await stored_texts(memory)
    commits = {t.id: t for t in texts if t.label == "Commit" and t.key == "sha"}
    assert len(commits) == 3
    kept = "\n".join(t.text for t in texts)
    assert AWS_ID not in kept and GITHUB not in kept and EMAIL not in kept
    assert "[secret: aws-access-key]" in kept and "[secret: github-token]" in kept
    files = {t.text for t in texts if t.label == "File" and t.key == "path"}
    assert files == {"retry.py", "ci/deploy.sh", "README.md"}


async def test_no_repository_no_commits(memory: Memory, tmp_path: Path) -> None:
    taken = await _take(memory, tmp_path)
    assert taken.written == 0 and "not a git repository" in (taken.problem or "")
    assert await CommitStore(memory).seen_head() is None
