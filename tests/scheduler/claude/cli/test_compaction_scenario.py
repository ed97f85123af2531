"""Issue 27 with the real CLI: SessionStart names Nous's tools; PreCompact keeps the session;
PostCompact puts back what the session had from Nous (issue 57)."""

from __future__ import annotations

from pathlib import Path

from graph.models import DecisionStatus
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from scheduler.claude.events import MCP_TOOLS
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import run_claude
from tests.support.graph_checks import open_checks
from tests.support.recall_seed import seeding

COMMAND = "cat deploy/missing-release-notes.md"
KEPT = "Nous, this project's memory, kept this session's state"
RECALLED = "the intake parser choked on YAML front matter"


async def test_compaction_keeps_the_session_in_its_episode_and_says_so(
    claude_bin: Path,
    hooked: Path,
    cli_env: dict[str, str],
    model: AnthropicStub,
    memory: Memory,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    model.script(
        ModelTurn.tool("Bash", {"command": COMMAND, "description": "read the notes"}),
        ModelTurn.text("The release notes are missing."),
    )
    first = run_claude(claude_bin, hooked, cli_env, "Prepare the release of version 2.4")
    assert first.code == 0, first.stderr
    opening = model.conversation[0].text()
    for name, what in MCP_TOOLS:
        assert f"`{name}`: {what}" in opening, "SessionStart names each tool and its use"

    before = len(model.requests)
    compacted = run_claude(
        claude_bin, hooked, cli_env, "/compact", extra=("--resume", first.session_id)
    )
    assert compacted.code == 0, compacted.stderr
    asked = "\n".join(r.text() for r in model.requests[before:] if isinstance(r.body, dict))
    assert KEPT in asked, "the compaction was told what Nous keeps"

    # `claude -p` ends its session (SessionEnd), and the resumed run starts another episode.
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        episodes = await checks.session_episodes(first.session_id)
    [kept] = [e for e in episodes if e.get("compactions")]
    assert kept["compactions"] == 1
    assert "Prepare the release of version 2.4" in kept["kept_task"]
    assert any(COMMAND in lesson for lesson in kept["lessons"]), kept["lessons"]


async def test_after_the_compaction_the_session_gets_back_what_nous_had_given_it(
    claude_bin: Path,
    hooked: Path,
    cli_env: dict[str, str],
    model: AnthropicStub,
    memory: Memory,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    # The CLI's own compaction (`/compact` on the resumed session), then the next prompt: the
    # model's request holds what PostCompact put back (its output stays in the conversation).
    (hooked / "notes").mkdir()
    (hooked / "notes" / "plan.md").write_text("# Plan\n")
    async with seeding(neo4j_endpoint, memory) as seed:
        await seed.decision(
            "notes/plan.md", outcome_success=False, outcome=RECALLED, status=DecisionStatus.FAILED
        )
    failing = [ModelTurn.tool("Bash", {"command": COMMAND, "description": "notes"}) for _ in "ab"]
    model.script(*failing, ModelTurn.text("The release notes are missing."))
    first = run_claude(claude_bin, hooked, cli_env, "Prepare notes/plan.md for release 2.4")
    assert first.code == 0, first.stderr
    assert [c.severity for c in await memory.censors.active_censors()] == ["block"]

    model.script(ModelTurn.text("Summary: release notes were being prepared."))
    compacted = run_claude(
        claude_bin, hooked, cli_env, "/compact", extra=("--resume", first.session_id)
    )
    assert compacted.code == 0, compacted.stderr
    before = len(model.conversation)
    model.script(ModelTurn.text("Going on."))
    after = run_claude(claude_bin, hooked, cli_env, "Go on", extra=("--resume", first.session_id))
    assert after.code == 0, after.stderr

    shown = model.conversation[before].text()
    assert "PostCompact [" in shown, "the PostCompact hook's output is not in the conversation"
    back = shown[shown.index("PostCompact [") :]
    assert "puts back what this session had from it" in back and "not instructions" in back
    assert "Task: Prepare notes/plan.md for release 2.4" in back
    learned = [line for line in back.split("\\n") if "Learned this session: " in line]
    assert len(learned) == 1 and COMMAND in learned[0], back[:3000]
    assert RECALLED in back, "what was recalled for the task was not put back"
