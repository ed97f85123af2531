"""A fact is recalled in its context: the fact remembered just before it from the same source
in the same session. In a conversation an answer ("yes, last May") carries few of the
question's words; the turn before it carries them."""

from __future__ import annotations

from cognition.recall.hybrid import HybridRecall
from cognition.recall.question import QuestionRecall
from graph.models import Fact
from graph.settings import EmbeddingSettings
from graph.store.memory import Memory


async def _told(memory: Memory, text: str, source: str, session_id: str) -> None:
    fact = Fact(agent_id=memory.agent_id, content=text)
    await memory.episodes.remember_fact(fact, source=source, session_id=session_id)


async def test_a_fact_is_found_by_the_words_of_the_one_before_it(memory: Memory) -> None:
    await _told(memory, "Ana: did you ever visit the Louvre museum?", "chat", "s-1")
    await _told(memory, "Ben: yes, last May, it was amazing", "chat", "s-1")
    await memory.await_text_indexes()
    recall = QuestionRecall(HybridRecall(memory, None, EmbeddingSettings()))

    answer = await recall.answer("When did anyone visit the Louvre museum?")

    assert "Ben: yes, last May, it was amazing" in answer.text
    # Shown with what it answers.
    assert "(after: Ana: did you ever visit the Louvre museum?)" in answer.text
    assert answer.items == {"facts": 2}


async def test_facts_of_other_sessions_lend_no_context(memory: Memory) -> None:
    await _told(memory, "Cy: have you toured the Prado gallery?", "chat", "s-1")
    await _told(memory, "Dee: never, sadly", "chat", "s-2")
    await memory.await_text_indexes()
    recall = QuestionRecall(HybridRecall(memory, None, EmbeddingSettings()))

    answer = await recall.answer("Who toured the Prado gallery?")

    assert "Cy: have you toured the Prado gallery?" in answer.text
    assert "never, sadly" not in answer.text and "after:" not in answer.text
