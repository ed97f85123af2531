"""Decisions kept from sessions and commits, superseded, recalled as the current rule."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cognition.decisions.keep import DecisionKeeper, Said
from cognition.decisions.recall import DecisionRecall
from graph.ids import new_id
from graph.intake import CommitEntry
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.team_decisions import TeamDecisionStore


@pytest.fixture
def project(agent_id: str) -> str:
    return f"git.example.org/team/{agent_id}"


@pytest.fixture
async def other(driver: GraphDriver) -> AsyncIterator[Memory]:
    """A second agent on the same Neo4j."""
    instance = Memory(driver, f"test-{new_id().lower()}")
    yield instance
    await instance.forget()


def _said(text: str, time: str, speaker: str = "assistant") -> Said:
    return Said(new_id(), speaker, text, time)


async def test_an_amendment_supersedes_the_rule_and_recall_gives_the_current_one(
    memory: Memory, project: str
) -> None:
    store = TeamDecisionStore(memory, project)
    keeper = DecisionKeeper(store)
    [first] = await keeper.from_commits(
        [
            commit(
                "3f2a1c0d9e8b7a6f5e4d3c2b1a0f9e8d7c6b5a49",
                "Set MAX_ATTEMPTS to 7\n\nMAX_ATTEMPTS is 7, measured to the rate-limit window; "
                "do not round it to 10.",
                "2026-10-02T09:00:00+00:00",
                ("src/retry.py",),
            )
        ]
    )
    await memory.await_text_indexes()
    [second] = await keeper.from_session(
        "s-1",
        [
            _said("What about the retry budget?", "2026-11-03T10:00:00Z", "user"),
            _said(
                "The limiter window grew to 90 s, so MAX_ATTEMPTS is now 8; keep the budget "
                "within the rate-limit window.",
                "2026-11-03T10:01:00Z",
            ),
        ],
    )
    await memory.await_text_indexes()

    chain = await store.chain(second)
    assert [d.id for d in chain] == [second, first]
    assert chain[0].invalid_at is None and chain[1].invalid_at is not None
    assert chain[1].invalid_at.startswith("2026-11-03")
    answer = await DecisionRecall(store).for_prompt(
        "The retrier crosses the rate-limit window; restore the intended attempt budget", 500
    )
    assert answer.ids == (second,)
    assert "MAX_ATTEMPTS is now 8" in answer.text
    assert "agreed in a session on 2026-11-03; current, replaces the rule of 2026-10-02" in (
        answer.text
    )
    assert "is 7, measured" not in answer.text


async def test_history_read_after_the_amendment_stays_superseded(
    memory: Memory, project: str
) -> None:
    store = TeamDecisionStore(memory, project)
    keeper = DecisionKeeper(store)
    [amended] = await keeper.from_session(
        "s-2",
        [
            _said(
                "We decided CACHE_TTL_S is 600 because the CDN purges every ten minutes.",
                "2026-11-20T08:00:00Z",
            )
        ],
    )
    await memory.await_text_indexes()
    [older] = await keeper.from_commits(
        [
            commit(
                "aa" * 20,
                "Keep CACHE_TTL_S at 300 because the CDN purges every five minutes.",
                "2026-09-01T08:00:00Z",
            )
        ]
    )
    await memory.await_text_indexes()
    chain = await store.chain(older)
    assert [(d.id, d.invalid_at is None) for d in chain] == [(amended, True), (older, False)]
    answer = await DecisionRecall(store).for_prompt("what is the CACHE_TTL_S for the CDN?", 500)
    assert answer.ids == (amended,)
    assert "commit" not in answer.text and "replaces the rule of 2026-09-01" in answer.text


async def test_a_repeat_is_not_a_new_decision_and_other_rules_stand(
    memory: Memory, project: str
) -> None:
    store = TeamDecisionStore(memory, project)
    keeper = DecisionKeeper(store)
    rule = "Never retry a 4xx other than 429 in fetch_page(), since the server bans repeats."
    other = "MAX_ATTEMPTS should be exactly 7; 8 trips the limiter."
    ids = await keeper.from_session(
        "s-3", [_said(rule, "2026-10-01T00:00:00Z"), _said(other, "2026-10-01T00:01:00Z")]
    )
    await memory.await_text_indexes()
    again = await keeper.from_session("s-4", [_said(rule, "2026-10-05T00:00:00Z")])
    assert len(ids) == 2 and again == []
    for decision_id in ids:
        [only] = await store.chain(decision_id)
        assert only.invalid_at is None


async def test_agents_of_one_project_share_decisions_and_nothing_else(
    memory: Memory, other: Memory, project: str
) -> None:
    mine = TeamDecisionStore(memory, project)
    theirs = TeamDecisionStore(other, project)
    elsewhere = TeamDecisionStore(other, project + "-fork")
    private = TeamDecisionStore(memory, project, shared=False)
    await DecisionKeeper(mine).from_session(
        "s-5",
        [
            _said(
                "We agreed BATCH_SIZE stays at 500 because larger batches time out.",
                "2026-10-01T00:00:00Z",
            )
        ],
    )
    await DecisionKeeper(private).from_session(
        "s-6",
        [
            _said(
                "We agreed DEBUG_SQL must stay off because it logs customer rows.",
                "2026-10-01T00:00:00Z",
            )
        ],
    )
    await memory.await_text_indexes()

    seen = await DecisionRecall(theirs).for_prompt("which BATCH_SIZE do the workers use?", 500)
    assert "BATCH_SIZE stays at 500" in seen.text
    assert (await DecisionRecall(elsewhere).for_prompt("BATCH_SIZE", 500)).text == ""
    assert (await DecisionRecall(theirs).for_prompt("DEBUG_SQL logs", 500)).text == ""
    assert "DEBUG_SQL" in (await DecisionRecall(mine).for_prompt("DEBUG_SQL logs", 500)).text


async def test_a_reason_given_after_why_completes_the_rule_it_explains(
    memory: Memory, project: str
) -> None:
    store = TeamDecisionStore(memory, project)
    keeper = DecisionKeeper(store)
    # Each Stop reads one turn: the rule in one read, the reason in the next.
    [bare] = await keeper.from_session(
        "s-7",
        [
            _said("What value should PAYMENTS_MAX_ATTEMPTS have?", "2026-10-01T09:00:00Z", "user"),
            Said(
                new_id(),
                "assistant",
                "Let's make PAYMENTS_MAX_ATTEMPTS 4.",
                "2026-10-01T09:00:20Z",
                "What value should PAYMENTS_MAX_ATTEMPTS have?",
            ),
        ],
    )
    await memory.await_text_indexes()
    reason = "The provider's rate-limit window allows 5 calls; anything above that fails."
    [full] = await keeper.from_session(
        "s-7",
        [
            _said("Why 4 and not 5?", "2026-10-01T09:03:00Z", "user"),
            Said(
                new_id(),
                "assistant",
                f"{reason} I'll add a comment.",
                "2026-10-01T09:03:20Z",
                "Why 4 and not 5?",
            ),
        ],
    )
    await memory.await_text_indexes()
    chain = await store.chain(full)
    assert [(d.id, d.invalid_at is None) for d in chain] == [(full, True), (bare, False)]
    assert chain[0].text == f"Let's make PAYMENTS_MAX_ATTEMPTS 4. {reason}"
    # A reply to something other than "why?", or in another session, completes nothing.
    assert (
        await keeper.from_session(
            "s-8", [Said(new_id(), "assistant", reason, "2026-10-01T09:05:00Z", "Why so slow?")]
        )
        == []
    )
    assert (
        await keeper.from_session(
            "s-7", [Said(new_id(), "assistant", reason, "2026-10-01T09:06:00Z", "And the tests?")]
        )
        == []
    )


def commit(sha: str, message: str, authored_at: str, files: tuple[str, ...] = ()) -> CommitEntry:
    """A commit as the history reader hands it: subject line, body, author's name and date."""
    subject, _, body = message.partition("\n")
    return CommitEntry(sha, subject, body.strip(), "A. Developer", authored_at, files)
