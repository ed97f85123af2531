"""RecallStore against a real Neo4j: each section of the one recall query (``recall/context``),
its order, its limits, its agent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graph.models import DecisionStatus, DecisionType, new_id
from graph.server.finder import Neo4jEndpoint
from graph.store.driver import GraphDriver
from graph.store.lucene import lucene_query
from graph.store.memory import Memory
from graph.store.queries import QueryLibrary
from graph.store.recall import LIMITS, RecalledMemory, RecallRequest, RecallStore
from tests.support.recall_seed import T0, Seeder, seeding


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


@pytest.fixture
async def other(neo4j_endpoint: Neo4jEndpoint, driver: GraphDriver) -> AsyncIterator[Seeder]:
    """A second agent in the same database, forgotten after the test."""
    memory = Memory(driver, f"test-other-{new_id().lower()}")
    try:
        async with seeding(neo4j_endpoint, memory) as seeder:
            yield seeder
    finally:
        await memory.forget()


async def recall(memory: Memory, **request: Any) -> RecalledMemory:
    """One round trip of ``recall/context``; ``limits`` default to 0 (section not queried)."""
    return await RecallStore(memory).recall(RecallRequest(**request))


async def facts(memory: Memory, query: str, limit: int) -> list[Any]:
    return (await recall(memory, query=query, limits={"facts": limit})).facts


async def test_past_decisions_by_file_kind_and_pattern_newest_first(
    memory: Memory, seed: Seeder, other: Seeder
) -> None:
    same_file = [
        await seed.decision("notes/kant.md", minutes=1, outcome_success=True, outcome="done"),
        await seed.decision("notes/kant.md", minutes=3, outcome_success=False),
        await seed.decision("notes/kant.md", minutes=2, type=DecisionType.WAIT, template=None),
    ]
    same_kind = await seed.decision("elsewhere/hume.txt", minutes=4)
    same_folder = await seed.decision("notes/plato.md", category="intake", minutes=5)
    await seed.decision("other/x.py", category="config", observation_type="file_created")
    await seed.decision("notes/kant.md", minutes=9, status=DecisionStatus.SUPERSEDED)
    await other.decision("notes/kant.md", minutes=10)

    found = (
        await recall(
            memory,
            path="notes/kant.md",
            category="knowledge",
            observation_type="file_modified",
            path_pattern="notes/*.md",
            limits={"decisions": 10},
        )
    ).decisions

    by_group: dict[str, list[str]] = {}
    for item in found:
        assert item.decision.agent_id == memory.agent_id
        by_group.setdefault(item.similarity, []).append(item.decision.id)
    # Each decision once, in the closest group; newest first in each group.
    assert by_group == {
        "same_file": [same_file[1], same_file[2], same_file[0]],
        "same_kind": [same_kind],
        "same_pattern": [same_folder],
    }
    newest = found[0].decision
    assert newest.outcome_success is False and newest.executed
    oldest = next(i.decision for i in found if i.decision.id == same_file[0])
    assert oldest.outcome_success is True and oldest.outcome == "done"
    assert oldest.at == T0 + timedelta(minutes=1)


async def test_past_decisions_limit_per_group_and_missing_keys(
    memory: Memory, seed: Seeder
) -> None:
    for minute in range(5):
        await seed.decision("a/b.md", minutes=minute)
    found = (await recall(memory, path="a/b.md", limits={"decisions": 2})).decisions
    assert [i.similarity for i in found] == ["same_file", "same_file"]
    assert [i.decision.at for i in found] == [T0 + timedelta(minutes=m) for m in (4, 3)]


async def test_past_decisions_take_the_groups_in_turn(memory: Memory, seed: Seeder) -> None:
    for minute in range(5):
        await seed.decision("a/b.md", minutes=minute)
        await seed.decision(f"x/k{minute}.txt", minutes=10 + minute)
        await seed.decision(f"a/p{minute}.md", category="intake", minutes=20 + minute)
    found = (
        await recall(
            memory,
            path="a/b.md",
            category="knowledge",
            observation_type="file_modified",
            path_pattern="a/*.md",
            limits={"decisions": 7},
        )
    ).decisions
    assert [(i.similarity, i.decision.path) for i in found] == [
        ("same_file", "a/b.md"),
        ("same_file", "a/b.md"),
        ("same_file", "a/b.md"),
        ("same_kind", "x/k4.txt"),
        ("same_kind", "x/k3.txt"),
        ("same_pattern", "a/p4.md"),
        ("same_pattern", "a/p3.md"),
    ]


async def test_pattern_stats_by_keys_and_top_patterns_for_a_category(
    memory: Memory, seed: Seeder, other: Seeder
) -> None:
    await seed.nodes(
        "patterns",
        {"key": "intake:file_created:act:process_intake", "total": 9, "successes": 7},
        {"key": "intake:file_created:wait:custom", "total": 2, "successes": 1},
        {"key": "intake:file_modified:act:process_intake", "total": 20, "successes": 5},
        {"key": "index:file_modified:act:update_index", "total": 50, "successes": 50},
    )
    await other.nodes("patterns", {"key": "intake:file_created:act:process_intake", "total": 1})
    keys = ["intake:file_created:act:process_intake", "intake:file_created:wait:custom", "nope"]
    found = await recall(memory, keys=keys, prefix="intake:", limits={"patterns": 2})
    exact = found.patterns
    assert [(p.key, p.total, p.successes) for p in exact] == [
        ("intake:file_created:act:process_intake", 9, 7),
        ("intake:file_created:wait:custom", 2, 1),
    ]
    assert exact[0].successes / exact[0].total == pytest.approx(7 / 9)
    assert [p.total for p in found.top_patterns] == [20, 9]
    assert (await recall(memory, keys=[], limits={"patterns": 2})).patterns == []


async def test_active_goals_censors_and_working_memory(
    memory: Memory, seed: Seeder, other: Seeder
) -> None:
    await seed.nodes(
        "goals",
        {"description": "keep the index current", "priority": "medium"},
        {"description": "answer intake within a day", "priority": "high"},
        {"description": "done already", "priority": "critical", "completed_at": T0},
    )
    await seed.nodes(
        "censors",
        {"trigger_pattern": "rm -rf", "reason": "r1", "severity": "warn", "fire_count": 9,
         "status": "active"},
        {"trigger_pattern": "force push", "reason": "r2", "severity": "block", "fire_count": 1,
         "status": "active"},
        {"trigger_pattern": "drop db", "reason": "r3", "severity": "block", "fire_count": 4,
         "status": "active"},
        {"trigger_pattern": "old", "reason": "r4", "severity": "block", "fire_count": 99,
         "status": "retired"},
    )  # fmt: skip
    await seed.nodes(
        "working_memory",
        {"session_id": "s1", "current_task": "triage intake", "open_threads": ["a", "b"]},
    )
    await other.nodes("censors", {"trigger_pattern": "x", "reason": "y", "status": "active"})
    found = await recall(
        memory,
        session_id="s1",
        limits={"goals": 10, "censors": 10},
    )
    goals = found.goals
    assert [g.description for g in goals] == [
        "answer intake within a day",
        "keep the index current",
    ]
    censors = found.censors
    assert [c.trigger_pattern for c in censors] == ["drop db", "force push", "rm -rf"]
    one = await recall(memory, limits={"censors": 1})
    assert [c.trigger_pattern for c in one.censors] == ["drop db"]
    wm = found.working_memory
    assert wm is not None and wm.current_task == "triage intake" and wm.open_threads == ["a", "b"]
    assert (await recall(memory, session_id="s2")).working_memory is None


async def test_full_text_finds_a_fact_by_a_word_and_only_this_agents(
    memory: Memory, seed: Seeder, other: Seeder
) -> None:
    await seed.nodes(
        "facts",
        {"content": "Kant wrote the Critique of Pure Reason", "confirmations": 3},
        {"content": "Hume was an empiricist", "confirmations": 1},
    )
    await other.nodes("facts", {"content": "Kant in another agent's memory"})
    hits = await facts(memory, lucene_query(["notes/kant.md"]), 10)
    assert [h.node.content for h in hits] == ["Kant wrote the Critique of Pure Reason"]
    assert hits[0].node.confirmations == 3 and hits[0].score > 0


async def test_full_text_procedures_episodes_and_lessons(memory: Memory, seed: Seeder) -> None:
    await seed.nodes(
        "procedures",
        {"name": "intake triage", "domain": "knowledge",
         "core_patterns": ["read the file", "classify by philosophy school"]},
    )  # fmt: skip
    await seed.nodes(
        "episodes",
        {"session_id": "s1", "started_at": T0, "outcome": "success",
         "summary": "sorted the inbox", "lessons": ["philosophy notes go to knowledge"]},
    )  # fmt: skip
    decision_id = await seed.decision("notes/kant.md")
    await seed.nodes(
        "lessons",
        {"decision_id": decision_id, "type": "confidence_too_high", "adjustment": "decrease",
         "reason": "philosophy notes were misfiled", "pattern_key": "knowledge:x:act:y"},
    )  # fmt: skip
    query = lucene_query(["philosophy"])
    found = await recall(memory, query=query, limits={"procedures": 5, "episodes": 5, "lessons": 5})

    [procedure] = found.procedures
    assert procedure.node.core_patterns == ["read the file", "classify by philosophy school"]
    [episode] = found.episodes
    assert episode.node.lessons == ["philosophy notes go to knowledge"]
    assert episode.node.started_at == T0
    [lesson] = found.lessons
    assert lesson.node.decision_id == decision_id
    assert lesson.node.adjustment == "decrease"
    assert await facts(memory, "", 5) == []


def test_lucene_query_keeps_words_only() -> None:
    assert lucene_query(["notes/Kant_critique.md", "AND OR NOT", "the kant"]) == (
        "notes OR kant OR critique"
    )
    assert lucene_query(['a:b (c) "d" \\ / * ? ~ ^ [] {} || && ! - +']) == ""
    assert lucene_query(["one two three four five"], max_terms=2) == "three OR four"
    assert lucene_query([]) == ""


@pytest.mark.parametrize(
    "text",
    [
        'title:"kant" AND (critique OR reason)^2 ~1 *wild? [a TO z] {x} \\ / || && ! -x +y',
        "kant\u0000\n\t\u2028 ünïcödé 中文 ///",
        "a" * 5000,
    ],
)
async def test_special_characters_do_not_break_full_text_search(
    memory: Memory, seed: Seeder, text: str
) -> None:
    await seed.nodes("facts", {"content": "kant critique reason"})
    hits = await facts(memory, lucene_query([text]), 5)
    assert all(h.node.agent_id == memory.agent_id for h in hits)


async def test_times_with_named_zones_and_nanoseconds_are_read(
    memory: Memory, seed: Seeder
) -> None:
    await seed.fixtures.write("seed/zoned_fact", id=new_id(), content="zoned kant")
    await memory.await_text_indexes()  # full-text is eventually consistent
    [hit] = await facts(memory, "kant", 5)
    assert hit.node.at == datetime(2026, 1, 1, 11, 0, 0, 123456, tzinfo=UTC)


async def test_every_section_answers_in_one_round_trip_and_none_without_a_limit(
    memory: Memory, seed: Seeder
) -> None:
    for minute in range(4):
        await seed.decision("notes/kant.md", minutes=minute, outcome_success=minute % 2 == 0)
    await seed.decision("notes/hume.md", minutes=5)
    await seed.decision("x/y.txt", minutes=6)
    await seed.nodes("patterns", {"key": "knowledge:file_modified:act:a", "total": 3},
                     {"key": "knowledge:file_created:wait:custom", "total": 9})  # fmt: skip
    await seed.nodes("goals", {"description": "g", "priority": "high"})
    await seed.nodes("censors", {"trigger_pattern": "t", "reason": "r", "status": "active"})
    await seed.nodes("working_memory", {"session_id": "s", "current_task": "w"})
    await seed.nodes("facts", {"content": "kant fact"})
    await seed.nodes("procedures", {"name": "kant way", "core_patterns": ["p"]})
    await seed.nodes("episodes", {"session_id": "s", "started_at": T0, "summary": "kant day",
                                  "lessons": []})  # fmt: skip
    decision_id = await seed.decision("notes/kant.md", minutes=9)
    await seed.nodes("lessons", {"decision_id": decision_id, "type": "t", "adjustment": "a",
                                 "reason": "kant lesson"})  # fmt: skip
    await memory.await_text_indexes()  # full-text is eventually consistent
    keys = ["knowledge:file_modified:act:a", "nope"]
    request: dict[str, Any] = dict(
        path="notes/kant.md", category="knowledge", observation_type="file_modified",
        path_pattern="notes/*.md", keys=keys, prefix="knowledge:", session_id="s", query="kant",
    )  # fmt: skip

    together = await recall(memory, **request, limits=dict.fromkeys(LIMITS, 3))

    assert len(together.decisions) == 3
    assert [p.key for p in together.patterns] == ["knowledge:file_modified:act:a"]
    assert [p.total for p in together.top_patterns] == [9, 3]
    assert [g.description for g in together.goals] == ["g"]
    assert [c.trigger_pattern for c in together.censors] == ["t"]
    assert together.working_memory is not None and together.working_memory.current_task == "w"
    assert [h.node.content for h in together.facts] == ["kant fact"]
    assert [h.node.name for h in together.procedures] == ["kant way"]
    assert [h.node.summary for h in together.episodes] == ["kant day"]
    assert [h.node.reason for h in together.lessons] == ["kant lesson"]

    nothing = await recall(memory, **request)
    assert nothing == RecalledMemory([], [], [], [], [], together.working_memory, [], [], [], [])


RECALL_QUERIES = QueryLibrary().names("recall")
INDEX_SCANS = {"NodeIndexScan", "NodeUniqueIndexScan", "NodeByLabelScan", "AllNodesScan"}


@pytest.mark.parametrize("name", RECALL_QUERIES)
async def test_recall_seeks_by_agent_and_never_scans(driver: GraphDriver, name: str) -> None:
    # An index *scan* passes the label-scan check in test_cypher_files but reads every
    # agent's entries; recall must seek by agent.
    plan = await driver.explain(name)
    operators = _operators(plan)
    assert not operators & INDEX_SCANS, f"{name}: {sorted(operators & INDEX_SCANS)}"
    assert operators & {"NodeIndexSeek", "NodeUniqueIndexSeek", "ProcedureCall"}, name


def _operators(plan: dict[str, Any]) -> set[str]:
    names = {str(plan.get("operatorType", "")).split("@")[0]}
    for child in plan.get("children", []):
        names |= _operators(child)
    return names


async def test_investigation_finds_this_agents_past_reasoning(
    memory: Memory, seed: Seeder, other: Seeder
) -> None:
    # recall/investigate asks recall_words for past reasoning (decision_text is gone,
    # migration 019): only this agent's decisions that ran (Consequential, 021) with an
    # outcome, words stemmed.
    found = await seed.decision(
        "notes/kant.md",
        reasoning="Spinoza's ethics were indexed",
        outcome="indexed",
        outcome_success=True,
    )
    await seed.decision("notes/kant.md", reasoning="Spinoza again, nothing done yet")
    await other.decision(
        "notes/kant.md", reasoning="Spinoza elsewhere", outcome="indexed", outcome_success=True
    )
    store = RecallStore(memory)

    row = await store.investigation(
        lucene_query(["ethic spinoza"]), "notes/kant.md", window_s=60, limit=10
    )

    assert [(t.id, t.kind) for t in row.texts] == [(found, "decision")]
    # Shown as recall shows a decision: what it did, how it came out, and why.
    assert row.texts[0].text == (
        "act on notes/kant.md with analyze_knowledge (succeeded: indexed): "
        "Spinoza's ethics were indexed"
    )
    nothing = await store.investigation("", "notes/kant.md", window_s=60, limit=10)
    assert nothing.texts == ()
