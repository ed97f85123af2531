"""After a real Claude Code session: its episode, turns, decision, tool results and censor."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cognition.frames.spec import SEED_FRAMES
from cognition.recall.gather import Recall
from graph.models import Observation, ObservationType
from graph.store.memory import Memory
from graph.store.transcripts import TranscriptStore
from graph.store.turns import TurnStore, tool_results
from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import nous_program, run_claude


async def test_the_session_is_in_the_graph_and_nous_why_tells_it(
    claude_bin: Path,
    hooked: Path,
    cli_env: dict[str, str],
    model: AnthropicStub,
    memory: Memory,
) -> None:
    target = hooked / "hello.txt"
    model.script(
        ModelTurn.tool("Write", {"file_path": str(target), "content": "hello\n"}),
        ModelTurn.tool("Bash", {"command": "cat nope.txt", "description": "check"}),
        ModelTurn.text("Created hello.txt; nope.txt is missing."),
    )

    run = run_claude(claude_bin, hooked, cli_env, "Create the file hello.txt")

    assert run.code == 0, run.stderr
    assert target.read_text() == "hello\n"
    assert await memory.episodes.open_episode(run.session_id) is None, "SessionEnd ends the episode"
    turns = await TurnStore(memory).session_turns(run.session_id)
    assert len(turns) == 1
    turn = turns[0]
    assert turn.status == "closed" and turn.frame == "task" and turn.outcome == "partial"
    assert turn.prompt == "Create the file hello.txt"
    assert turn.decision_id is not None and turn.episode_id is not None
    episode = await memory.episodes.episode(turn.episode_id)
    assert episode is not None and episode.ended_at is not None
    assert episode.outcome == "completed"
    # What was said, read from the transcript the real CLI wrote (Stop and SessionEnd).
    said = await TranscriptStore(memory).session_utterances(run.session_id)
    assert [(u.speaker, u.text) for u in said] == [
        ("user", "Create the file hello.txt"),
        ("assistant", "Created hello.txt; nope.txt is missing."),
    ]
    assert {u.turn_id for u in said} == {turn.id}
    results = tool_results(turn)
    assert [r.tool_name for r in results] == ["Write", "Bash"]
    assert results[0].error is None
    assert "No such file" in (results[1].error or "")
    decision = await memory.learning.decision(turn.decision_id)
    assert decision is not None and decision.outcome == "partial"
    censors = await memory.censors.active_censors()
    assert len(censors) == 1 and "cat nope.txt" in censors[0].trigger_pattern
    # One memory: the daemon's own recall, deciding about a file, sees the session's censor.
    recall = Recall(memory, hooked, lambda _o, _f: [])
    event = Observation(
        agent_id=memory.agent_id, type=ObservationType.FILE_MODIFIED, path="hello.txt"
    )
    task = next(f for f in SEED_FRAMES if f.name == "task")
    seen = await recall.build([event], task)
    assert censors[0].id in [c.id for c in seen.censors]

    why = _nous(cli_env, "why", turn.decision_id)
    assert why.returncode == 0, why.stderr
    assert "Claude Code turns: 1" in why.stdout
    assert "Create the file hello.txt" in why.stdout
    assert "Bash" in why.stdout and "No such file" in why.stdout, why.stdout
    assert "censors it filed or fired: 0" in why.stdout or censors[0].id in why.stdout

    audit = _nous(cli_env, "audit", "claude_turns", "--json")
    assert audit.returncode == 0, audit.stderr
    [row] = json.loads(audit.stdout)
    assert (row["session_id"], row["tool_calls"]) == (run.session_id, 2)


def _nous(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(nous_program()), *argv], env=env, capture_output=True, text=True, timeout=120
    )
