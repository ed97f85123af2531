"""``nous why`` tells a team decision's chain of supersession."""

from __future__ import annotations

import json

import pytest

from cognition.decisions.keep import DecisionKeeper, Said
from graph.ids import new_id
from graph.intake import CommitEntry
from graph.store.memory import Memory
from graph.store.team_decisions import TeamDecisionStore
from tests.scheduler.cli.conftest import Nous


async def test_why_shows_the_rule_in_force_and_what_it_replaced(
    nous: Nous, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = f"example.org/{memory.agent_id}"
    monkeypatch.setenv("NOUS_PROJECT", project)
    keeper = DecisionKeeper(TeamDecisionStore(memory, project))
    [old] = await keeper.from_commits(
        [
            commit(
                "3f2a1c0" + "0" * 33,
                "MAX_ATTEMPTS is 7, measured to the rate-limit window; do not round it to 10.",
                "2026-10-02T09:00:00Z",
            )
        ]
    )
    await memory.await_text_indexes()
    [new] = await keeper.from_session(
        "sess-9",
        [
            Said(
                new_id(),
                "assistant",
                "We agreed MAX_ATTEMPTS is 8 now: the rate-limit window grew to 90 s.",
                "2026-11-03T10:00:00Z",
            )
        ],
    )

    result = await nous("why", old)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert (
        lines[0] == f"decision {old}: a rule as stated, 2 in its chain (1 in force, 1 superseded)"
    )
    assert f"├─ {new}: in force, since 2026-11-03" in result.out
    assert f"└─ {old} (asked): superseded 2026-11-03, since 2026-10-02" in result.out
    assert "stated in commit 3f2a1c0" in result.out and "stated in session sess-9" in result.out
    shown = json.loads((await nous("why", new, "--json")).out)
    assert [d["id"] for d in shown["decisions"]] == [new, old]


def commit(sha: str, message: str, authored_at: str, files: tuple[str, ...] = ()) -> CommitEntry:
    """A commit as the history reader hands it: subject line, body, author's name and date."""
    subject, _, body = message.partition("\n")
    return CommitEntry(sha, subject, body.strip(), "A. Developer", authored_at, files)
