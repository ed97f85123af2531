"""``nous mcp``'s tools, called by the MCP SDK's client on a real server, on seeded memory."""

from __future__ import annotations

from pathlib import Path

from graph.models import Decision, DecisionType, Escalation
from graph.server.finder import Neo4jEndpoint
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory
from tests.scheduler.claude.conftest import Opener
from tests.scheduler.claude.mcp_client import READ_ONLY, TOOLS, call, call_failing
from tests.support.graph_checks import open_checks
from tests.support.recall_seed import Seeder
from tests.support.story_seed import PATH, write_story


async def test_the_tools_are_listed_with_read_only_annotations(nous_mcp: Opener) -> None:
    async with nous_mcp() as session:
        listed = (await session.list_tools()).tools
        assert {t.name for t in listed} == TOOLS
        for tool in listed:
            assert tool.description and len(tool.description) > 40, tool.name
            assert tool.annotations is not None
            assert tool.annotations.readOnlyHint is (tool.name in READ_ONLY), tool.name
            assert tool.annotations.destructiveHint is False
        recall = next(t for t in listed if t.name == "recall")
        # recall alone is never deferred behind Claude Code's tool search (bench.always_load).
        always = {t.name for t in listed if (t.meta or {}).get("anthropic/alwaysLoad") is True}
        assert always == {"recall"}
        assert recall.inputSchema["required"] == ["question"]
        assert set(recall.inputSchema["properties"]) == {"question", "path"}


async def test_each_tool_answers_from_the_agents_memory(
    nous_mcp: Opener, memory: Memory, seeder: Seeder, project: Path
) -> None:
    async with nous_mcp() as session:
        story = await write_story(seeder)
        [fact_id] = await seeder.nodes(
            "facts", {"content": "Notes are indexed by their first heading", "confirmations": 2}
        )
        await seeder.nodes(
            "procedures",
            {
                "name": "Reindex the notes",
                "domain": "writing",
                "core_patterns": ["run the indexer"],
            },
        )
        await seeder.nodes(
            "censors",
            {"trigger_pattern": "rm -rf knowledge", "reason": "deleted every note",
             "severity": "block", "status": "active", "fire_count": 2},
        )  # fmt: skip
        await seeder.nodes(
            "goals",
            {"description": "Keep the index current", "priority": "high", "completed_at": None},
            {
                "description": "Old goal, finished",
                "priority": "critical",
                "completed_at": "2026-01-01",
            },
        )
        escalation_id = await _escalation(memory, "_intake/odd.bin")

        recalled = await call(session, "recall", question="how are notes indexed?", path=PATH)
        assert f"About the file: {PATH}" in recalled and story.decision_id in recalled
        assert f"act on {PATH} with analyze_knowledge" in recalled
        assert "Notes are indexed by their first heading" in recalled
        # At most five memories: the procedure answers its own question.
        assert "Reindex the notes" in await call(session, "recall", question="reindex notes")
        assert f"{PATH}: changed 1 time (0 by the agent, 1 by a person)" in recalled
        # Only what is about the question: not the censor on deleting, not the goals.
        assert "rm -rf knowledge" not in recalled and "Keep the index current" not in recalled
        # An absolute path inside the root is the same file.
        absolute = await call(session, "recall", question="notes", path=str(project / PATH))
        assert f"About the file: {PATH}" in absolute and f"{PATH}: changed 1 time" in absolute

        why = await call(session, "why", target=story.decision_id)
        assert story.decision_id in why and "analyze_knowledge" in why
        assert "rate limited" in why and "retry of attempt 1" in why
        assert story.decision_id in await call(session, "why", target=f"./{PATH}")

        censors = await call(session, "censors")
        assert censors.index("BLOCK rm -rf knowledge") < censors.index("WARN analyze_knowledge")
        assert story.censor_id in censors

        strategies = await call(session, "strategies")
        assert (
            "Index notes by their first heading" in strategies and story.heuristic_id in strategies
        )

        escalations = await call(session, "escalations")
        assert escalation_id in escalations and "_intake/odd.bin" in escalations

        goals = await call(session, "goals")
        assert goals.index("open, high: Keep the index current") < goals.index("done, critical")
        assert fact_id not in goals


async def test_why_and_recall_refuse_what_is_not_there_or_outside_the_root(
    nous_mcp: Opener, agent_id: str
) -> None:
    async with nous_mcp() as session:
        missing = await call_failing(session, "why", target="01NOSUCHDECISION")
        assert (
            "no decision" in missing and "\n01NOSUCHDECISION (" in missing and agent_id in missing
        )
        climbing = await call_failing(session, "recall", question="x", path="../secrets.txt")
        assert "'..'" in climbing and "../secrets.txt" in climbing
        outside = await call_failing(session, "why", target="/etc/passwd")
        assert "a path outside the watched root" in outside
        empty = await call_failing(session, "recall", question="   ")
        assert "question is empty" in empty
        huge = await call_failing(session, "why", target="x/" * 50_000)
        assert "100,000 characters" in huge and len(huge) < 200
        # The server is still there after each refusal.
        assert "No goals." in await call(session, "goals")


async def test_remembered_facts_and_procedures_are_recalled_with_their_source(
    nous_mcp: Opener, neo4j_endpoint: Neo4jEndpoint, agent_id: str
) -> None:
    async with nous_mcp() as session:
        told = await call(
            session,
            "remember",
            kind="fact",
            text="The zygomorphic build needs Java 17",
            source="docs/build.md",
        )
        assert "Remembered fact" in told and "docs/build.md" in told
        steps = "start neo4j\nrun the zygomorphic migrations\n\nrestart the daemon"
        procedure = await call(
            session, "remember", kind="procedure", text=steps, source="a person", domain="ops"
        )
        assert "\nName: start neo4j\n" in procedure

        recalled = await call(session, "recall", question="what does zygomorphic need?")
        assert "The zygomorphic build needs Java 17" in recalled
        assert "start neo4j" in recalled and "run the zygomorphic migrations" in recalled

        fact_id = told.split("Remembered fact ", 1)[1].split()[0].rstrip(":")
        procedure_id = procedure.split("Remembered procedure ", 1)[1].split()[0].rstrip(":")
        async with open_checks(neo4j_endpoint, agent_id) as checks:
            fact = await checks.node(fact_id)
            stored = await checks.node(procedure_id)
        assert fact is not None and fact["source"] == "docs/build.md"
        assert fact["content"] == "The zygomorphic build needs Java 17"
        assert stored is not None and stored["source"] == "a person" and stored["domain"] == "ops"
        assert stored["core_patterns"] == [
            "start neo4j",
            "run the zygomorphic migrations",
            "restart the daemon",
        ]


async def test_a_fact_told_after_another_is_recalled_by_its_words(
    nous_mcp: Opener, neo4j_endpoint: Neo4jEndpoint, agent_id: str
) -> None:
    async with nous_mcp() as session:
        for text in ("Ana: did you ever visit the Louvre museum?", "Ben: yes, last May"):
            await call(session, "remember", kind="fact", text=text, source="chat with Ana")
        recalled = await call(session, "recall", question="When was the Louvre museum visited?")
        assert "Ben: yes, last May (after: Ana: did you ever visit the Louvre museum?)" in recalled
    async with nous_mcp() as session:  # another client session: the chat is not its context
        told = await call(
            session, "remember", kind="fact", text="Cy: it rained", source="chat with Ana"
        )
    fact_id = told.split("Remembered fact ", 1)[1].split()[0].rstrip(":")
    async with open_checks(neo4j_endpoint, agent_id) as checks:
        fact = await checks.node(fact_id)
    assert fact is not None and "context" not in fact and fact["text_in_context"] == "Cy: it rained"


async def test_remember_refuses_empty_unsourced_and_oversized_text(nous_mcp: Opener) -> None:
    async with nous_mcp() as session:
        empty = await call_failing(session, "remember", kind="fact", text=" \n ", source="x")
        assert "text is empty" in empty
        unsourced = await call_failing(session, "remember", kind="fact", text="a fact", source="")
        assert "where it came from" in unsourced
        huge = await call_failing(session, "remember", kind="fact", text="x" * 5000, source="x")
        assert "mcp.max_remember_chars" in huge and "5,000" in huge


async def _escalation(memory: Memory, path: str) -> str:
    decisions = DecisionStore(memory)
    decision = Decision(
        agent_id=memory.agent_id, type=DecisionType.ESCALATE, confidence=0.2, path=path
    )
    decision_id = await decisions.record_decision(decision, [], observation_ids=[])
    escalation = Escalation(
        agent_id=memory.agent_id,
        decision_id=decision_id,
        reason="confidence 0.20 is below the escalation threshold",
        priority="high",
        message=f"Please look at {path}",
    )
    await decisions.record_escalation(escalation)
    return escalation.id
