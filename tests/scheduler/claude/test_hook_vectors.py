"""Hooks working alone (no daemon) leave nothing pending: after its answer, a hook's detached
child embeds what the hook wrote, within the hook's limit."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from cognition.embeddings import EMBEDDED_MODEL
from graph.store.embeddings import EmbeddingStore
from graph.store.memory import Memory
from scheduler.claude.hook_vectors import hand_off_vectors
from tests.support.claude_cli import nous_program

SESSION = "s-vectors"


async def _hook(root: Path, env: dict[str, str], event: str, **fields: str) -> tuple[str, float]:
    """``nous hook EVENT`` as Claude Code runs it; its stdout and how long until it ended."""
    proc = await asyncio.create_subprocess_exec(
        str(nous_program()), "hook", event, "--root", str(root),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=env, cwd=root,
    )  # fmt: skip
    payload = {"session_id": SESSION, "hook_event_name": event, **fields}
    started = asyncio.get_running_loop().time()
    out, err = await asyncio.wait_for(proc.communicate(json.dumps(payload).encode()), 120)
    assert proc.returncode == 0 and "nothing added" not in err.decode(), err.decode()
    return out.decode(), asyncio.get_running_loop().time() - started


async def _pending(memory: Memory) -> dict[str, tuple[int, int]]:
    rows = await EmbeddingStore(memory).status(EMBEDDED_MODEL)
    return {r.label: (r.current, r.pending) for r in rows}


async def test_a_session_without_a_daemon_leaves_nothing_pending(
    neo4j_env: dict[str, str], memory: Memory, root: Path
) -> None:
    # A loaded test machine: the child's limit (the hook's) long enough, its engine not niced.
    env = {**neo4j_env, "NOUS_AGENT_ID": memory.agent_id, "NOUS_CLAUDE__HOOK_TIMEOUT_S": "60",
           "NOUS_EMBEDDINGS__NICE": "0"}  # fmt: skip
    await _hook(root, env, "SessionStart", source="startup")
    await _hook(root, env, "UserPromptSubmit", prompt="Tidy the release notes in plan.md")
    await _hook(root, env, "Stop", last_assistant_message="The release notes are tidy now.")
    await _hook(root, env, "SessionEnd", reason="other")
    counts = await _pending(memory)
    for _ in range(300):  # the last hook's child may still be at work
        if all(pending == 0 for _, pending in counts.values()):
            break
        await asyncio.sleep(0.1)
        counts = await _pending(memory)
    assert all(pending == 0 for _, pending in counts.values()), counts
    assert counts["Turn"][0] == 1 and counts["Episode"][0] >= 1, counts


def test_only_a_turns_end_hands_its_writes_off(monkeypatch: pytest.MonkeyPatch) -> None:
    # One child a turn, at its end: none after a prompt or a failed tool call (a child's
    # imports and model load would compete with the model's work and the turn's next hooks).
    forks: list[int] = []

    def fork() -> int:
        forks.append(1)
        return 1  # the parent's side: hand_off_vectors returns at once

    monkeypatch.setattr(os, "fork", fork)
    stdout = sys.__stdout__
    assert stdout is not None
    for event in ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUseFailure"):
        hand_off_vectors(event, stdout, root=".", started=0.0)
    assert forks == []
    for event in ("Stop", "PreCompact", "SessionEnd"):
        hand_off_vectors(event, stdout, root=".", started=0.0)
    assert len(forks) == 3
