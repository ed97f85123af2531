"""Commits are recalled like everything else: by words, by meaning and by the file they touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from cognition.embeddings import EmbeddedE5, Embeddings
from cognition.recall.hybrid import HybridRecall, fuse
from cognition.recall.question import QuestionRecall
from cognition.recall.vectors import VectorJob
from cognition.sense.history import take_history
from graph.settings import EmbeddingSettings
from graph.settings_lean import HookHistory, git_environment
from graph.store.commits import CommitStore
from graph.store.memory import Memory
from tests.support.git_repo import commit, new_repo

SETTINGS = EmbeddingSettings()


@pytest.fixture(scope="module")
def embeddings() -> Embeddings:
    return Embeddings(EmbeddedE5(threads=1))


async def _history(memory: Memory, root: Path) -> str:
    repo = new_repo(root)
    commit(repo, "build: pin the toolchain", {"Makefile": "x"})
    rule = commit(
        repo,
        "retry: MAX_ATTEMPTS is 7\n\nMeasured to the rate-limit window; do not round it to 10.",
        {"net/retry.py": "MAX_ATTEMPTS = 7"},
        author="Ann Dev",
    )
    commit(repo, "docs: typo", {"README.md": "x"})
    taken = await take_history(
        CommitStore(memory), repo, git_environment(), HookHistory.defaults(), timeout_s=10
    )
    assert taken.written == 3
    await memory.await_text_indexes()
    return rule


async def test_a_commit_is_recalled_by_its_words_with_its_sha_date_and_author(
    memory: Memory, tmp_path: Path
) -> None:
    rule = await _history(memory, tmp_path / "repo")
    answer = await QuestionRecall(HybridRecall(memory, None, SETTINGS)).answer(
        "how many retry attempts fit the rate-limit window?"
    )
    assert f"commit {rule[:7]}" in answer.text and "Ann Dev" in answer.text
    assert "do not round it to 10" in answer.text


async def test_a_commit_is_recalled_by_the_file_it_touched(memory: Memory, tmp_path: Path) -> None:
    rule = await _history(memory, tmp_path / "repo")
    hits = await HybridRecall(memory, None, SETTINGS).search("", path="net/retry.py")
    [touched] = [h for h in hits.graph if h.label == "Commit"]  # not the other two commits
    assert rule[:7] in touched.text


async def test_a_commit_is_recalled_by_meaning(
    memory: Memory, embeddings: Embeddings, tmp_path: Path
) -> None:
    rule = await _history(memory, tmp_path / "repo")
    job = VectorJob(memory, embeddings, SETTINGS, tmp_path)
    assert await job.run() >= 3 and job.stats.last_error is None
    hits = await HybridRecall(memory, embeddings, SETTINGS).search(
        "the number of attempts should stay under the throttling limit", limit=3
    )
    assert hits.meaning and rule[:7] in hits.meaning[0].text, hits.meaning
    fused = fuse({"words": hits.words, "meaning": hits.meaning, "graph": hits.graph})
    assert rule[:7] in fused[0].text
