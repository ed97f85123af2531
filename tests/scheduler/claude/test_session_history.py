"""Git history without a daemon: a ``SessionStart`` hook reads the new commits, within budget."""

from __future__ import annotations

import stat
import time
from pathlib import Path

from cognition.sense.history import HistoryReader
from graph.server.finder import Neo4jEndpoint
from graph.settings_lean import HookHistory, git_environment
from graph.store.commits import CommitStore
from graph.store.memory import Memory
from graph.store.stored_texts import stored_texts
from tests.support.git_repo import commit, new_repo
from tests.support.hook_session import Session, hook_settings


async def test_a_session_start_keeps_the_new_commits_and_the_next_prompt_recalls_them(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    repo = new_repo(tmp_path / "project")
    rule = commit(
        repo,
        "retry: MAX_ATTEMPTS is 7\n\nMeasured to the rate-limit window; do not round it to 10.",
        {"net/retry.py": "MAX_ATTEMPTS = 7"},
    )
    settings = hook_settings(neo4j_endpoint, memory.agent_id)
    session = Session(settings, repo, "3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f")
    await session.hook("SessionStart", source="startup")
    assert await CommitStore(memory).seen_head() == rule
    newer = commit(repo, "docs: say why", {"README.md": "why"})
    await session.hook("SessionStart", source="resume")
    assert await CommitStore(memory).seen_head() == newer
    shas = {t.text for t in await stored_texts(memory) if t.label == "Commit" and t.key == "sha"}
    assert shas == {rule, newer}

    await memory.await_text_indexes()
    answer = await session.hook(
        "UserPromptSubmit", prompt="Restore the retry attempt budget for the rate-limit window"
    )
    assert f"commit {rule[:7]}" in answer and "do not round it to 10" in answer


async def test_a_git_that_hangs_costs_the_session_start_its_budget_alone(
    memory: Memory, tmp_path: Path
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "git"
    fake.write_text("#!/bin/sh\nexec /bin/sleep 30\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    limits = HookHistory.defaults()
    reader = HistoryReader(tmp_path, {**git_environment(), "PATH": str(bin_dir)}, limits, 0.3)
    started = time.monotonic()
    taken = await reader.take(CommitStore(memory))
    assert time.monotonic() - started < 2.0
    assert taken.written == 0 and "0.3 s" in (taken.problem or "")
