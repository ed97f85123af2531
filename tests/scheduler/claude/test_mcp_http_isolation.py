"""``nous mcp --http``: a token reads and writes its own agent's memory, and nothing else.

Two agents' memories are seeded; alice's token calls every tool with
arguments crafted to reach bob's (his decision, censor and heuristic ids,
his file, his words, an ``agent_id`` argument), and none of bob's memory comes
back. Bob's own token, on the same server, finds all of it: the words are
findable, only not by alice. A revoked, missing or made-up token is refused
(401) before anything is read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
import httpx
import pytest

from graph.models import new_id, utc_now
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from graph.store.team_decisions import NewDecision, TeamDecisionStore
from graph.store.tokens import TokenStore
from tests.scheduler.claude.mcp_client import call, text_of
from tests.scheduler.claude.mcp_http_client import TeamServer, make_token, team_session
from tests.support.recall_seed import seeding
from tests.support.story_seed import PATH, write_story

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
async def bob(memory: Memory) -> AsyncIterator[Memory]:
    """A second agent on the same Neo4j, forgotten after the test."""
    other = Memory(memory.driver, f"{memory.agent_id}-bob")
    yield other
    await other.forget()


async def test_a_token_reads_only_its_own_agents_memory(
    team: TeamServer, neo4j_endpoint: Neo4jEndpoint, memory: Memory, bob: Memory
) -> None:
    async with seeding(neo4j_endpoint, bob) as seeder:
        story = await write_story(seeder)
        await seeder.nodes("facts", {"content": "Quokkaberry is the bob-only release codename"})
        await seeder.nodes(
            "goals", {"description": "Ship quokkaberry", "priority": "high", "completed_at": None}
        )
    async with seeding(neo4j_endpoint, memory) as seeder:
        await seeder.nodes("facts", {"content": "Alice keeps the quokka notes in plain text"})
    # Bob states two decisions: one for the whole project (alice sees it), one his own.
    shared = TeamDecisionStore(bob, team.project)
    await shared.record([_decision("We pin the wombat parser to v2 because v3 drops")])
    own = TeamDecisionStore(bob, team.project, shared=False)
    await own.record(
        [_decision("We keep the wombat cache in quokkaberry memory because it is bob's")]
    )
    await bob.await_text_indexes()
    secrets = [
        story.decision_id,
        story.censor_id,
        story.heuristic_id,
        "Quokkaberry",
        "quokkaberry",
        "analyze_knowledge",
        "first heading",
        "wombat cache",
        bob.agent_id,
    ]
    tag = memory.agent_id[-8:]
    alice_token = await make_token(memory.driver, f"alice{tag}", memory.agent_id)
    bob_token = await make_token(memory.driver, f"bob{tag}", bob.agent_id)
    other = {"agent_id": bob.agent_id}  # an argument no tool declares: dropped, never obeyed

    answers: list[str] = []
    async with team_session(team.url, alice_token) as session:
        decided = await call(session, "recall", question="which wombat parser and cache?")
        assert "We pin the wombat parser to v2" in decided, decided  # the project's decision
        answers.append(decided)
        for question in ("quokkaberry release codename", "analyze_knowledge first heading"):
            answers.append(await call(session, "recall", question=question, path=PATH, **other))
        for target in (story.decision_id, PATH, story.censor_id, f"./{PATH}"):
            result = await session.call_tool("why", {"target": target, **other})
            assert result.isError and "no decision" in text_of(result), text_of(result)
            answers.append(text_of(result).replace(target, "<the id asked about>"))
        for tool in ("censors", "strategies", "escalations", "goals"):
            answers.append(await call(session, tool, **other))
        told = await call(
            session, "remember", kind="fact", text="Alice's zebrafish note", source="alice", **other
        )
        answers.append(told)
        await memory.await_text_indexes()  # full-text is eventually consistent
        mine = await call(session, "recall", question="quokka notes")
        kept = await call(session, "recall", question="zebrafish note")
    for answer in answers:
        for secret in secrets:
            assert secret not in answer, (secret, answer)
    assert memory.agent_id in answers[-2]  # the goals listing names the caller's agent
    assert "Alice keeps the quokka notes" in mine and "Alice's zebrafish note" in kept

    async with team_session(team.url, bob_token) as session:
        found = await call(session, "recall", question="quokkaberry release codename")
        story_text = await call(session, "why", target=story.decision_id)
        strategies = await call(session, "strategies")
        notes = await call(session, "recall", question="zebrafish note")
        his = await call(session, "recall", question="which wombat parser and cache?")
    assert "Quokkaberry is the bob-only release codename" in found
    assert story.decision_id in story_text and story.heuristic_id in strategies
    assert "Alice" not in notes and "zebrafish" not in notes  # alice's write stayed hers
    assert "We keep the wombat cache" in his and "We pin the wombat parser" in his


async def test_a_session_cannot_be_borrowed_with_another_token(
    team: TeamServer, memory: Memory, bob: Memory
) -> None:
    tag = memory.agent_id[-8:]
    alice_token = await make_token(memory.driver, f"alice{tag}", memory.agent_id)
    bob_token = await make_token(memory.driver, f"bob{tag}", bob.agent_id)
    async with httpx.AsyncClient(timeout=10) as http:
        opened = await http.post(team.url, json=INIT, headers=_auth(alice_token))
        assert opened.status_code == 200, opened.text
        session_id = opened.headers["mcp-session-id"]
        call_ = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "goals", "arguments": {}},
        }
        borrowed = await http.post(
            team.url, json=call_, headers={**_auth(bob_token), "mcp-session-id": session_id}
        )
        assert borrowed.status_code == 404 and memory.agent_id not in borrowed.text


async def test_revoked_missing_and_made_up_tokens_are_refused(
    team: TeamServer, memory: Memory
) -> None:
    tag = memory.agent_id[-8:]
    token = await make_token(memory.driver, f"carol{tag}", memory.agent_id)
    with anyio.fail_after(30), pytest.raises(BaseExceptionGroup) as ended:
        async with team_session(team.url, token) as session:
            assert "No goals." in await call(session, "goals")
            [revoked] = await TokenStore(memory.driver).revoke(f"carol{tag}", utc_now())
            assert revoked.agent_id == memory.agent_id
            await session.call_tool("goals", {})  # the very next request is refused
    refusals, _ = ended.value.split(httpx.HTTPStatusError)
    assert refusals is not None
    assert [e.response.status_code for e in _leaves(refusals)] == [401]
    refused = {
        "revoked": _auth(token),
        "missing": {},
        "garbage": _auth("nous_" + new_id()),
        "not ours": _auth("eyJhbGciOiJub25lIn0.e30."),
        "empty": {"Authorization": "Bearer"},
        "basic": {"Authorization": "Basic YWxpY2U6cGFzcw=="},
        "huge": _auth("nous_" + "A" * 100_00),
        "odd bytes": {"Authorization": "Bearer nous_\u00e9\u00e8".encode("latin-1")},
    }
    async with httpx.AsyncClient(timeout=10) as http:
        for why, headers in refused.items():
            answer = await http.post(team.url, json=INIT, headers={**ACCEPT, **headers})
            assert answer.status_code == 401, (why, answer.status_code, answer.text)
            assert answer.headers["www-authenticate"].startswith("Bearer"), why
            assert memory.agent_id not in answer.text, why


def _decision(text: str) -> NewDecision:
    return NewDecision(
        text=text,
        subjects=("wombat",),
        files=(),
        decision_text=text,
        subject_text="wombat",
        valid_from=utc_now().isoformat(),
        source="session",
        session_id="s-bob",
        speaker="user",
    )


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[httpx.HTTPStatusError]:
    found: list[httpx.HTTPStatusError] = []
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            found += _leaves(exc)
        elif isinstance(exc, httpx.HTTPStatusError):
            found.append(exc)
    return found


def _auth(token: str) -> dict[str, str]:
    return {**ACCEPT, "Authorization": f"Bearer {token}"}
