"""A session's transcript kept at Stop, PreCompact and SessionEnd, through ``nous hook``."""

from __future__ import annotations

import os
from pathlib import Path

from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from graph.store.stored_texts import stored_texts
from graph.store.transcripts import TranscriptStore
from graph.store.turns import TurnStore
from tests.cognition.sense.test_secrets import AWS_ID, GITHUB
from tests.support.hook_session import Session, hook_settings
from tests.support.transcripts import TranscriptWriter

SESSION = "7d1f0a22-5b6c-4d8e-9f01-23456789abcd"


async def test_both_speakers_are_kept_in_their_turns_read_on_from_the_cursor(
    neo4j_endpoint: Neo4jEndpoint, memory: Memory, tmp_path: Path
) -> None:
    session = Session(hook_settings(neo4j_endpoint, memory.agent_id), tmp_path, SESSION)
    writer = TranscriptWriter(tmp_path / "t" / f"{SESSION}.jsonl", SESSION)
    where = {"transcript_path": str(writer.path)}
    await session.hook("SessionStart", source="startup", **where)
    await session.hook("UserPromptSubmit", prompt="Why is MAX_ATTEMPTS 7?", **where)
    writer.user("Why is MAX_ATTEMPTS 7?")
    writer.assistant("Checking the retrier.", tool=True)
    writer.assistant("MAX_ATTEMPTS should be exactly 7; 8 trips the limiter.")
    await session.hook("Stop", last_assistant_message="MAX_ATTEMPTS should be exactly 7", **where)
    await session.hook("UserPromptSubmit", prompt="And the backoff?", **where)
    writer.user("And the backoff?")
    writer.assistant("Backoff doubles from 250 ms.")
    await session.hook("Stop", last_assistant_message="Backoff doubles", **where)
    await session.hook("SessionEnd", reason="other", **where)  # nothing new: nothing twice

    store = TranscriptStore(memory)
    said = await store.session_utterances(SESSION)
    turns = await TurnStore(memory).session_turns(SESSION)
    assert [(u.speaker, u.text) for u in said] == [
        ("user", "Why is MAX_ATTEMPTS 7?"),
        ("assistant", "Checking the retrier."),
        ("assistant", "MAX_ATTEMPTS should be exactly 7; 8 trips the limiter."),
        ("user", "And the backoff?"),
        ("assistant", "Backoff doubles from 250 ms."),
    ]
    first, second = turns[0].id, turns[1].id
    assert [u.turn_id for u in said] == [first, first, first, second, second]
    assert all(u.time and u.line > 0 for u in said)
    cursor = await store.cursor(SESSION)
    assert cursor.offset == writer.path.stat().st_size and cursor.path == str(writer.path)


async def test_a_hostile_transcript_is_not_read_and_the_turn_goes_on(
    neo4j_endpoint: Neo4jEndpoint, memory: Memory, tmp_path: Path
) -> None:
    session = Session(hook_settings(neo4j_endpoint, memory.agent_id), tmp_path, SESSION)
    real = TranscriptWriter(tmp_path / "real.jsonl", SESSION)
    real.user("a prompt")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real.path)
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    await session.hook("UserPromptSubmit", prompt="a prompt", transcript_path=str(link))
    for path in (link, fifo, Path("/dev/zero"), tmp_path / "none.jsonl", real.path.with_suffix("")):
        await session.hook("Stop", last_assistant_message="ok", transcript_path=str(path))
    await session.hook("PreCompact", trigger="auto", transcript_path=str(fifo))

    assert await TranscriptStore(memory).session_utterances(SESSION) == []
    turns = await TurnStore(memory).session_turns(SESSION)
    assert [t.status for t in turns] == ["closed"]


async def test_precompact_keeps_what_was_said_before_the_compaction(
    neo4j_endpoint: Neo4jEndpoint, memory: Memory, tmp_path: Path
) -> None:
    session = Session(hook_settings(neo4j_endpoint, memory.agent_id), tmp_path, SESSION)
    writer = TranscriptWriter(tmp_path / "p.jsonl", SESSION)
    await session.hook("UserPromptSubmit", prompt="plan it", transcript_path=str(writer.path))
    writer.user("plan it")
    writer.assistant("We keep the queue bounded at 64 because memory is tight.")
    await session.hook("PreCompact", trigger="auto", transcript_path=str(writer.path))

    said = await TranscriptStore(memory).session_utterances(SESSION)
    assert [u.speaker for u in said] == ["user", "assistant"]


async def test_a_secret_said_in_the_transcript_is_kept_as_its_marker(
    neo4j_endpoint: Neo4jEndpoint, memory: Memory, tmp_path: Path
) -> None:
    session = Session(hook_settings(neo4j_endpoint, memory.agent_id), tmp_path, SESSION)
    writer = TranscriptWriter(tmp_path / "k.jsonl", SESSION)
    await session.hook("UserPromptSubmit", prompt="push it", transcript_path=str(writer.path))
    writer.user(f"use the token {GITHUB} to push")
    writer.assistant(
        f"We agreed DEPLOY_KEY_ID must stay {AWS_ID} because the role is pinned to it."
    )
    await session.hook("Stop", last_assistant_message="ok", transcript_path=str(writer.path))

    said = await TranscriptStore(memory).session_utterances(SESSION)
    kept = " ".join(u.text for u in said)
    assert GITHUB not in kept and AWS_ID not in kept
    assert "[secret: github-token]" in kept and "[secret: aws-access-key]" in kept
    assert all(GITHUB not in t.text and AWS_ID not in t.text for t in await stored_texts(memory))
