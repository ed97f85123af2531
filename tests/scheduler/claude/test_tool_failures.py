"""Failures count when they happen (issue 27), through ``nous hook`` working alone."""

from __future__ import annotations

from pathlib import Path

from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from scheduler.claude.events import MCP_TOOLS
from tests.scheduler.claude.mcp_client import TOOLS
from tests.support.hook_session import Session, hook_settings

SESSION = "2d0c7a52-3c55-4c1e-9d55-0a4b1c0f9e11"
CALL = {"command": "make release"}


async def _session(memory: Memory, endpoint: Neo4jEndpoint, root: Path) -> Session:
    session = Session(hook_settings(endpoint, memory.agent_id), root, SESSION)
    await session.hook("UserPromptSubmit", prompt="Cut the release")
    return session


async def test_a_call_that_mostly_works_stays_a_warning(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    session = await _session(memory, neo4j_endpoint, tmp_path)
    for _ in range(3):
        await session.hook("PostToolUse", tool_name="Bash", tool_input=CALL, tool_response="ok")
    for _ in range(2):
        await session.hook(
            "PostToolUseFailure", tool_name="Bash", tool_input=CALL, error="make: *** flaky"
        )
    [censor] = await memory.censors.active_censors()
    assert (censor.severity, censor.fire_count) == ("warn", 2)
    answer = await session.hook("PreToolUse", tool_name="Bash", tool_input=CALL)
    assert "additionalContext" in answer and "permissionDecision" not in answer


async def test_a_transient_failure_makes_no_censor_and_two_others_block_at_once(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    session = await _session(memory, neo4j_endpoint, tmp_path)
    await session.hook(
        "PostToolUseFailure", tool_name="Bash", tool_input=CALL, error="connection reset by peer"
    )
    assert await memory.censors.active_censors() == []
    for _ in range(2):
        await session.hook(
            "PostToolUseFailure", tool_name="Bash", tool_input=CALL, error="No rule to make target"
        )
    [censor] = await memory.censors.active_censors()
    assert censor.severity == "block", "blocked before the turn's Stop"
    denied = await session.hook("PreToolUse", tool_name="Bash", tool_input=CALL)
    assert '"permissionDecision": "deny"' in denied
    await session.hook("Stop", last_assistant_message="Gave up.")
    [after] = await memory.censors.active_censors()
    assert after.fire_count == censor.fire_count, "Stop does not count the failures again"


def test_session_start_names_the_tools_the_server_offers() -> None:
    assert {name for name, _ in MCP_TOOLS} == TOOLS


async def test_the_first_answer_says_when_no_daemon_runs(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    settings = hook_settings(neo4j_endpoint, memory.agent_id)
    asking = Session(settings, tmp_path, SESSION, ask=True)
    started = await asking.hook("SessionStart", source="startup")
    assert "no daemon runs on this project" in started and "nous init claude --service" in started
    prompt = await asking.hook("UserPromptSubmit", prompt="Cut the release")
    assert "no daemon runs" not in prompt, "said once, in the session's first answer"
    # Asked for another agent's settings, the hook does not ask a daemon: it says nothing.
    alone = Session(settings, tmp_path, SESSION, ask=False)
    assert "no daemon runs" not in await alone.hook("SessionStart", source="startup")
