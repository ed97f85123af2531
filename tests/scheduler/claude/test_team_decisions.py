"""Decisions through ``nous hook``: stated in one agent's session, quoted in another's prompt."""

from __future__ import annotations

from pathlib import Path

from graph.ids import new_id
from graph.server.finder import Neo4jEndpoint
from graph.settings import Settings, load_settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
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
        stranger = Session(
            _settings(neo4j_endpoint, second.agent_id, project + "-other"), tmp_path, "sc-1"
        )
        await stranger.hook("UserPromptSubmit", prompt="restore the intended attempt budget")
        assert "MAX_ATTEMPTS" not in " ".join(text for _, text in stranger.fields)
    finally:
        await second.forget()
