"""Full-text queries restricted to one agent: the form of the clause, and what it finds."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cognition.recall.hybrid import HybridRecall
from graph.models import Fact, new_id
from graph.settings import EmbeddingSettings
from graph.store.driver import GraphDriver
from graph.store.lucene import agent_query
from graph.store.memory import Memory


def test_an_agent_is_one_required_clause_per_piece_of_its_id() -> None:
    # One term per piece, no phrase: a phrase reads every candidate's positions.
    assert agent_query("kant", "bench-recall-01m8-1000000") == (
        '+agent_id:"bench" +agent_id:"recall" +agent_id:"01m8" +agent_id:"1000000" +(kant)'
    )
    assert agent_query("kant OR hume", "nous") == '+agent_id:"nous" +(kant OR hume)'
    assert agent_query("kant", "two  words") == '+agent_id:"two" +agent_id:"words" +(kant)'


def test_an_agent_id_cannot_escape_its_quotes() -> None:
    query = agent_query("kant", 'a"b\\c) OR *:*')
    assert query == '+agent_id:"a\\"b\\\\c)" +agent_id:"OR" +agent_id:"*:*" +(kant)'
    # An id of separators only is kept whole (the analyzer may drop it; recall filters again).
    assert agent_query("kant", "--") == '+agent_id:"--" +(kant)'


def test_no_words_no_query() -> None:
    assert agent_query("", "nous") == ""


@pytest.fixture
async def agents(driver: GraphDriver) -> AsyncIterator[list[Memory]]:
    """Three agents whose ids share their pieces: the same two in both orders, and one alone."""
    tag = new_id().lower()
    memories = [Memory(driver, name) for name in (f"red-blue-{tag}", f"blue-red-{tag}", tag)]
    yield memories
    for memory in memories:
        await memory.forget()


async def test_each_agent_finds_its_own_facts_beside_agents_with_the_same_pieces(
    agents: list[Memory],
) -> None:
    for memory in agents:
        for n in range(3):
            await memory.episodes.add_fact(
                Fact(agent_id=memory.agent_id, content=f"kant note {n} of {memory.agent_id}")
            )
    await agents[0].await_text_indexes()  # the word indexes are eventually consistent
    for memory in agents:
        recall = HybridRecall(memory, None, EmbeddingSettings())
        found = await recall.search("kant note", limit=10)
        texts = sorted(hit.text for hit in found.words)
        assert texts == [f"kant note {n} of {memory.agent_id}" for n in range(3)]


async def test_an_agent_id_with_quotes_and_backslashes_finds_its_own(driver: GraphDriver) -> None:
    tag = new_id().lower()
    # The second id is every word piece of the first but the quoted one and the backslash.
    memory, near = Memory(driver, f'odd "agent" \\ {tag}'), Memory(driver, f"odd {tag}")
    try:
        await memory.episodes.add_fact(Fact(agent_id=memory.agent_id, content="spinoza lenses"))
        await near.episodes.add_fact(Fact(agent_id=near.agent_id, content="spinoza optics"))
        await memory.await_text_indexes()
        for mine, text in ((memory, "spinoza lenses"), (near, "spinoza optics")):
            found = await HybridRecall(mine, None, EmbeddingSettings()).search("spinoza", limit=5)
            assert [hit.text for hit in found.words] == [text]
    finally:
        await memory.forget()
        await near.forget()
