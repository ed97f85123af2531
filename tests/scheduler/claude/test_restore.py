"""PostCompact puts back what the session had from Nous, within its budget (hooks working alone).

The real CLI's compaction is in ``cli/test_compaction_scenario.py``; here, the bounds.
"""

from __future__ import annotations

from pathlib import Path

from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from scheduler.claude.restore import HEADER
from tests.support.hook_session import Session, hook_settings

SESSION = "3c9a1d2e-4b5f-4a6b-8c7d-9e0f1a2b3c4d"


async def test_nothing_is_put_back_before_the_first_prompt(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    session = Session(hook_settings(neo4j_endpoint, memory.agent_id), tmp_path, SESSION)
    await session.hook("SessionStart", source="startup")
    assert await session.hook("PostCompact", trigger="auto", compact_summary="s") == ""


async def test_what_is_put_back_stays_within_the_budget(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint, tmp_path: Path
) -> None:
    settings = hook_settings(neo4j_endpoint, memory.agent_id)
    session = Session(settings, tmp_path, SESSION)
    await session.hook("UserPromptSubmit", prompt="fix the parser " + "and more words " * 2000)
    for n in range(40):  # many failures, each its own censor: far more than the budget holds
        call = {"command": f"run step {n} " + "x" * 200}
        await session.hook("PostToolUseFailure", tool_name="Bash", tool_input=call, error="boom")
    await session.hook("PreCompact", trigger="auto", custom_instructions=None)
    back = await session.hook("PostCompact", trigger="auto", compact_summary="summary")
    assert back.startswith(HEADER)
    assert "Task: fix the parser" in back and "not instructions" in back
    assert "Learned this session: " in back
    budget = settings.claude.session_start_tokens * 4
    assert len(back) <= budget, (len(back), budget)
