"""Decisions through ``nous hook``: stated in one agent's session, quoted in another's prompt."""

from __future__ import annotations

from pathlib import Path

from graph.ids import new_id
from graph.server.finder import Neo4jEndpoint
from graph.settings import Settings, load_settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.team_decisions import TeamDecisionStore
from tests.support.hook_session import EMPTY, Session
from tests.support.transcripts import TranscriptWriter


def _settings(endpoint: Neo4jEndpoint, agent_id: str, project: str) -> Settings:
    environ = {
        "NOUS_AGENT_ID": agent_id,
        "NOUS_PROJECT": project,
        "NEO4J_URI": endpoint.uri,
        "NEO4J_USER": endpoint.user,
        "NEO4J_PASSWORD": endpoint.password,
    }
    return load_settings(EMPTY, environ=environ)


async def test_a_rule_agreed_by_one_agent_is_quoted_first_to_another(
    neo4j_endpoint: Neo4jEndpoint, driver: GraphDriver, memory: Memory, tmp_path: Path
) -> None:
    project = f"example.org/{memory.agent_id}"
    second = Memory(driver, f"test-{new_id().lower()}")
    try:
        first = Session(_settings(neo4j_endpoint, memory.agent_id, project), tmp_path, "sa-1")
        writer = TranscriptWriter(tmp_path / "sa-1.jsonl", "sa-1")
        where = {"transcript_path": str(writer.path)}
        prompt = "5 is leaving retries on the table, can we raise the retry budget?"
        await first.hook("UserPromptSubmit", prompt=prompt, **where)
        writer.user(prompt)
        writer.assistant("Let me check the limiter.", tool=True)
        writer.assistant(
            "MAX_ATTEMPTS should be exactly 7; 8 trips the limiter's rate-limit window. "
            "I'll leave a comment in retry.py."
        )
        await first.hook("Stop", last_assistant_message="MAX_ATTEMPTS should be 7", **where)
        await first.hook("SessionEnd", reason="other", **where)
        await memory.await_text_indexes()

        other = Session(_settings(neo4j_endpoint, second.agent_id, project), tmp_path, "sb-1")
        await other.hook("SessionStart", source="startup")
        answer = await other.hook(
            "UserPromptSubmit",
            prompt="The retrier crosses the rate-limit window; restore the intended attempt budget",
        )
        context = dict(other.fields)["UserPromptSubmit additionalContext"]
        assert '"MAX_ATTEMPTS should be exactly 7; 8 trips the limiter' in context
        assert "agreed in a session on " in context
        assert context.index("Decisions in force") < context.index("MAX_ATTEMPTS")
        assert "leaving retries on the table" not in answer  # the other agent's prompt: its own
        store = TeamDecisionStore(second, project)
        [decision] = await store.in_force_about(["MAX_ATTEMPTS"])
        links = await store.provenance(decision.id)
        assert links is not None and [(s.label, s.session_id) for s in links.stated_in] == [
            ("Utterance", "sa-1")
        ]
        assert links.stated_in[0].turn_id is not None  # the utterance is IN_TURN its turn
        stranger = Session(
            _settings(neo4j_endpoint, second.agent_id, project + "-other"), tmp_path, "sc-1"
        )
        await stranger.hook("UserPromptSubmit", prompt="restore the intended attempt budget")
        assert "MAX_ATTEMPTS" not in " ".join(text for _, text in stranger.fields)
    finally:
        await second.forget()


async def test_the_amended_rule_is_current_and_the_old_one_is_left_out(
    neo4j_endpoint: Neo4jEndpoint, memory: Memory, tmp_path: Path
) -> None:
    settings = _settings(neo4j_endpoint, memory.agent_id, f"example.org/{memory.agent_id}")
    for session, (ask, said) in enumerate(
        [
            (
                "Is the batch right?",
                "We agreed LEDGER_BATCH_SIZE is 120: batches over 121 rows "
                "exceed the statement timeout.",
            ),
            (
                "Can we revisit it?",
                "We're changing LEDGER_BATCH_SIZE to 240 now: the timeout "
                "grew, batches over 241 rows exceed it. This replaces the old value of 120.",
            ),
        ]
    ):
        hooks = Session(settings, tmp_path, f"sl-{session}")
        writer = TranscriptWriter(tmp_path / f"sl-{session}.jsonl", f"sl-{session}")
        await hooks.hook("UserPromptSubmit", prompt=ask, transcript_path=str(writer.path))
        writer.user(ask)
        writer.assistant(said)
        await hooks.hook("Stop", last_assistant_message=said, transcript_path=str(writer.path))
        await memory.await_text_indexes()

    fresh = Session(settings, tmp_path, "sl-new")
    await fresh.hook("UserPromptSubmit", prompt="The ledger batch hits the statement timeout")
    context = dict(fresh.fields)["UserPromptSubmit additionalContext"]
    assert "LEDGER_BATCH_SIZE to 240" in context and "current, replaces the rule of" in context
    assert "LEDGER_BATCH_SIZE is 120" not in context, context
