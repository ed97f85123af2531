"""The daemon's git history job: registered from the settings, each run keeps what HEAD added."""

from __future__ import annotations

from pathlib import Path

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from cognition.sense.history import HistoryReader
from graph.settings import HistorySettings
from graph.settings_lean import git_environment
from graph.store.memory import Memory
from scheduler.jobs import HISTORY_BUDGET_S, register_history_job
from tests.support.git_repo import commit, new_repo


async def test_the_job_keeps_the_commits_head_moved_to(memory: Memory, tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    first = commit(repo, "one", {"a.py": "1"})
    settings = HistorySettings(interval_s=5)
    reader = HistoryReader(repo, git_environment(), settings, HISTORY_BUDGET_S)
    scheduler = AsyncIOScheduler()
    described = register_history_job(scheduler, settings, memory.commits, reader)
    assert described == ["git history (every 5 s, at most 200 commits a read)"]
    run = scheduler.get_job("history").func
    await run()
    assert await memory.commits.seen_head() == first
    second = commit(repo, "two", {"b.py": "2"})
    await run()
    assert await memory.commits.seen_head() == second

    off = AsyncIOScheduler()
    disabled = HistorySettings(enabled=False)
    assert register_history_job(off, disabled, memory.commits, reader) == []
    assert off.get_jobs() == []
