"""Decisions that did something are Consequential, and only they are found by words (021, 022).

Every reader of past decisions by words wants those that did something (hybrid
recall for a prompt or MCP, investigation); a WAIT kept in Lucene cost the
server's CPU on every decision (issue 28). An escalation is Consequential when
it is recorded, an ACT when its action starts for real; a dry run's never is; a
chat turn's decision when the turn closes.
"""

from __future__ import annotations

from pathlib import Path

from cognition.chat.layer import CognitiveLayer
from cognition.chat.turns import TurnResult
from cognition.frames.engine import FrameEngine
from graph.models import ActionTarget, Decision, DecisionType, Execution, utc_now
from graph.server.finder import Neo4jEndpoint
from graph.store.decisions import DecisionStore
from graph.store.driver import GraphDriver
from graph.store.lucene import agent_query, lucene_query
from graph.store.memory import Memory
from graph.store.migrate import split_statements
from graph.store.recall import HybridRequest
from graph.store.rows.decide import Settlement
from tests.support.graph_checks import open_checks

MIGRATION = "021_word_recall_of_consequential_decisions.cypher"
CHAT_MIGRATION = "022_word_recall_of_chat_decisions.cypher"


def _decision(memory: Memory, type: DecisionType, words: str) -> Decision:
    return Decision(
        agent_id=memory.agent_id,
        type=type,
        confidence=0.8,
        path="notes/zanzibar.md",
        reasoning=f"{words}: the zanzibar notes changed",
    )


def _execution(memory: Memory, decision: Decision, *, dry_run: bool) -> Execution:
    return Execution(
        agent_id=memory.agent_id,
        decision_id=decision.id,
        target=ActionTarget.DRY_RUN if dry_run else ActionTarget.COMMAND,
        dry_run=dry_run,
    )


async def _labels(neo4j_endpoint: Neo4jEndpoint, memory: Memory, ids: list[str]) -> list[bool]:
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        rows = [await checks.memory.read("checks/node", id=i) for i in ids]
    return ["Consequential" in r[0]["labels"] for r in rows]


# Which of _story's decisions carry the label: an escalation and an action that ran for real.
CONSEQUENTIAL = {"wait": False, "escalate": True, "ran": True, "dry": False, "retried": False}


async def _story(memory: Memory) -> dict[str, str]:
    """One decision of each kind, written as the loop writes them; their ids by kind."""
    store = DecisionStore(memory)
    ids: dict[str, str] = {}
    wait = _decision(memory, DecisionType.WAIT, "wait")
    ids["wait"] = await store.record_decision(wait, [], observation_ids=[])
    escalated = _decision(memory, DecisionType.ESCALATE, "escalate")
    ids["escalate"] = await store.record_decision(escalated, [], observation_ids=[])
    ran = _decision(memory, DecisionType.ACT, "ran")
    ids["ran"] = await store.record_decision(ran, [], observation_ids=[])
    await store.start_execution(_execution(memory, ran, dry_run=False), ran)
    dry = _decision(memory, DecisionType.ACT, "dry")
    ended = _execution(memory, dry, dry_run=True).model_copy(update={"ended_at": utc_now()})
    ids["dry"] = await store.record_decision(
        dry, [], observation_ids=[], dry_run=ended, settled=Settlement("dry run")
    )
    retried = _decision(memory, DecisionType.ACT, "retried")  # a dry run that did not complete
    ids["retried"] = await store.record_decision(retried, [], observation_ids=[])
    await store.start_execution(_execution(memory, retried, dry_run=True), retried)
    return ids


async def test_only_an_escalation_or_an_action_that_ran_is_consequential(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    ids = await _story(memory)
    labelled = await _labels(neo4j_endpoint, memory, list(ids.values()))
    assert dict(zip(ids, labelled, strict=True)) == CONSEQUENTIAL


async def test_words_find_only_the_decisions_that_did_something(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    ids = await _story(memory)
    await memory.await_text_indexes()
    query = agent_query(lucene_query(["zanzibar"]), memory.agent_id)
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        rows = await checks.memory.read("checks/recall_words", query=query)
    assert {r["id"] for r in rows} == {ids["escalate"], ids["ran"]}
    assert all("Decision" in r["labels"] for r in rows)


async def test_the_migration_labels_the_decisions_already_stored(
    memory: Memory, driver: GraphDriver, neo4j_endpoint: Neo4jEndpoint
) -> None:
    ids = await _story(memory)
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        await checks.memory.write("checks/unlabel_consequential")  # as stored before 021
    assert not any(await _labels(neo4j_endpoint, memory, list(ids.values())))

    schema = driver.queries.root / "schema" / MIGRATION
    label_them = split_statements(Path(schema).read_text(encoding="utf-8"))[0]
    assert label_them.startswith("MATCH (d:Decision)")
    for _ in range(2):  # run again (a migration cut half way): the same labels
        await driver.run_schema(label_them, source=str(schema))
        labelled = await _labels(neo4j_endpoint, memory, list(ids.values()))
        assert dict(zip(ids, labelled, strict=True)) == CONSEQUENTIAL


async def _turns(memory: Memory) -> dict[str, str]:
    """A chat turn closed through the cognitive layer, and one still open; their decision ids."""
    layer = CognitiveLayer(memory, FrameEngine(memory))
    closed = await layer.pre_turn("s-zanzibar", "fix the zanzibar importer crash")
    await layer.post_turn("s-zanzibar", TurnResult(response_text="Fixed it."), closed)
    still_open = await layer.pre_turn("s-zanzibar", "build a REST API for the zanzibar importer")
    assert closed.decision_id is not None and still_open.decision_id is not None
    return {"closed": closed.decision_id, "open": still_open.decision_id}


async def test_a_closed_chat_turn_is_found_by_words(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    # A turn the model worked through did something, though Nous ran nothing itself.
    ids = await _turns(memory)
    assert await _labels(neo4j_endpoint, memory, [ids["closed"], ids["open"]]) == [True, False]
    await memory.await_text_indexes()
    query = agent_query(lucene_query(["zanzibar"]), memory.agent_id)
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        rows = await checks.memory.read("checks/recall_words", query=query)
    assert {r["id"] for r in rows} == {ids["closed"]}
    # What a prompt's recall shows of it: what the turn set out to do and how it ended.
    request = HybridRequest(model="", query=query, useful_only=True)
    [hit] = [h for h in (await memory.recall.hybrid(request)).words if h.label == "Decision"]
    assert hit.text == "act (succeeded): Plan: fix the zanzibar importer crash"


async def test_migration_022_labels_the_chat_turns_already_closed(
    memory: Memory, driver: GraphDriver, neo4j_endpoint: Neo4jEndpoint
) -> None:
    turns, story = await _turns(memory), await _story(memory)
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        await checks.memory.write("checks/unlabel_consequential")  # as stored before 022
    schema = driver.queries.root / "schema" / CHAT_MIGRATION
    [label_them] = split_statements(Path(schema).read_text(encoding="utf-8"))
    for _ in range(2):  # run again (a migration cut half way): the same labels
        await driver.run_schema(label_them, source=str(schema))
        assert await _labels(neo4j_endpoint, memory, list(turns.values())) == [True, False]
        # The loop's decisions are 021's to label, not this migration's.
        assert not any(await _labels(neo4j_endpoint, memory, list(story.values())))
