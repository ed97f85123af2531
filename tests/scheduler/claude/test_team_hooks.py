"""Hooks through the team server: ``nous hook`` with ``claude.team_url`` and no Neo4j of its own.

A real ``nous mcp --http`` (the module's ``team`` fixture) on the real Neo4j;
the hooks run as ``nous hook`` runs them, with settings that hold a team
server's address and a token file and no database credentials. What they
write is the token's agent's; another agent's censor does not reach them; a
revoked token, a server that is down and one that never answers each cost
the session one line saying what to fix, and the process never loads the
driver.
"""

from __future__ import annotations

import io
import json
import socket
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from graph.models import utc_now
from graph.settings import Settings, load_settings
from graph.store.commits import CommitStore
from graph.store.memory import Memory
from graph.store.tokens import TokenStore
from graph.store.transcripts import TranscriptStore
from graph.store.turns import tool_results
from scheduler.claude.hook_client import run_hook
from scheduler.claude.hook_team import TeamUnavailable, read_token
from tests.scheduler.claude.mcp_http_client import TeamServer, free_port, make_token
from tests.scheduler.claude.test_hook_imports import FORBIDDEN, PYDANTIC, loaded_by_hook
from tests.support.git_repo import commit, new_repo
from tests.support.hook_session import EMPTY, Session
from tests.support.transcripts import TranscriptWriter

LEAN_SETTINGS = {"graph.errors", "graph.settings_lean", "graph.settings_source"}
"""What a hook through the team server loads of Nous's memory: its settings, read lean."""
CALL = {"command": "npm publish --otp=000000"}
FAILURE = "npm ERR! code EOTP one-time password required"


def team_url(team: TeamServer) -> str:
    """The team server's address, as a developer's settings give it (no ``/mcp``)."""
    return f"http://{team.host}:{team.port}"


def token_file(folder: Path, token: str, name: str = "token") -> Path:
    """``token`` in a file only its owner may read (as the hook requires)."""
    path = folder / name
    path.write_text(token + "\n")
    path.chmod(0o600)
    return path


def team_env(url: str, token: Path, **more: str) -> dict[str, str]:
    """What a developer's hook needs to reach the team server: no database credentials."""
    return {"NOUS_CLAUDE__TEAM_URL": url, "NOUS_CLAUDE__TEAM_TOKEN_FILE": str(token), **more}


def team_settings(url: str, token: Path, **more: str) -> Settings:
    return load_settings(EMPTY, environ=team_env(url, token, **more))


@pytest.fixture
async def bob(memory: Memory) -> AsyncIterator[Memory]:
    """A second agent on the same Neo4j, forgotten after the test."""
    other = Memory(memory.driver, f"{memory.agent_id}-bob")
    yield other
    await other.forget()


def hook(settings: Settings, root: Path, event: str, **fields: object) -> tuple[str, str]:
    """One hook as ``nous hook`` answers it: what it printed, and what it said on stderr."""
    raw = json.dumps({"session_id": "team-hooks-session", "hook_event_name": event, **fields})
    out, err = io.StringIO(), io.StringIO()
    code = run_hook(
        event, io.BytesIO(raw.encode()), out, err, root=root, ask=False, settings=settings
    )
    assert code == 0
    return out.getvalue().strip(), err.getvalue()


async def test_a_hook_through_the_server_writes_the_turn_under_the_tokens_agent(
    team: TeamServer, memory: Memory, bob: Memory, tmp_path: Path
) -> None:
    alice_token = await make_token(memory.driver, f"alice-{memory.agent_id}", memory.agent_id)
    settings = team_settings(team_url(team), token_file(tmp_path, alice_token))
    session = Session(settings, tmp_path, "team-turn-session")
    started = await session.hook("SessionStart", source="startup")
    assert "additionalContext" in started and "memory is off" not in started
    await session.hook("UserPromptSubmit", prompt="Please tidy the wombat notes")
    listed = {"stdout": "notes.md", "stderr": ""}
    await session.hook(
        "PostToolUse", tool_name="Bash", tool_input={"command": "ls"}, tool_response=listed
    )
    turn = await memory.turns.open_turn_of("team-turn-session")
    assert turn is not None and "wombat" in turn.prompt
    assert [r.tool_name for r in tool_results(turn)] == ["Bash"]
    assert await bob.turns.open_turn_of("team-turn-session") is None
    await session.hook("Stop", last_assistant_message="Tidied.")
    assert await memory.turns.open_turn_of("team-turn-session") is None, "Stop closed it"
    assert [t.response for t in await memory.turns.session_turns("team-turn-session")] == [
        "Tidied."
    ]


async def test_the_censor_gate_works_through_the_server_and_only_for_its_agent(
    team: TeamServer, memory: Memory, bob: Memory, tmp_path: Path
) -> None:
    alice = team_settings(
        team_url(team),
        token_file(
            tmp_path, await make_token(memory.driver, f"a-{memory.agent_id}", memory.agent_id)
        ),
    )
    bobs = team_settings(
        team_url(team),
        token_file(tmp_path, await make_token(bob.driver, f"b-{bob.agent_id}", bob.agent_id), "b"),
    )
    for _ in range(2):  # the same failing call twice: a block censor, bob's alone
        hook(bobs, tmp_path, "PreToolUse", tool_name="Bash", tool_input=CALL)
        hook(bobs, tmp_path, "PostToolUseFailure", tool_name="Bash", tool_input=CALL, error=FAILURE)
    denied, _ = hook(bobs, tmp_path, "PreToolUse", tool_name="Bash", tool_input=CALL)
    assert json.loads(denied)["hookSpecificOutput"]["permissionDecision"] == "deny"
    allowed, err = hook(alice, tmp_path, "PreToolUse", tool_name="Bash", tool_input=CALL)
    assert "deny" not in allowed and "nothing added" not in err, "bob's censor is bob's"


async def test_no_hook_through_the_server_loads_the_driver_or_pydantic(
    team: TeamServer, memory: Memory, tmp_path: Path
) -> None:
    token = await make_token(memory.driver, f"p-{memory.agent_id}", memory.agent_id)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    env.update(team_env(team_url(team), token_file(tmp_path, token)))
    root = tmp_path / "project"
    root.mkdir()
    answers: list[str] = []
    events = [("SessionStart", {"source": "startup"})]
    for _ in range(2):
        events += [
            ("PreToolUse", {"tool_name": "Bash", "tool_input": CALL}),
            ("PostToolUseFailure", {"tool_name": "Bash", "tool_input": CALL, "error": FAILURE}),
        ]
    events += [
        ("PreToolUse", {"tool_name": "Bash", "tool_input": CALL}),
        ("UserPromptSubmit", {"prompt": "Publish the package"}),
        ("Stop", {"last_assistant_message": "Could not publish."}),
    ]
    for n, (event, fields) in enumerate(events):
        modules, answer = loaded_by_hook(event, fields, root, env, tmp_path / f"{n}.json")
        answers.append(answer)
        assert "scheduler.claude.hook_team" in modules and "scheduler.claude.hooks" not in modules
        heavy = sorted(
            m
            for m in modules
            if m.split(".")[0]
            in {"neo4j", "pydantic", "asyncio", "yaml", "cognition", "http", "email", "ssl"}
            or (m.startswith("graph.") and m not in LEAN_SETTINGS)
            or m in FORBIDDEN
            or m in PYDANTIC
        )
        assert (event, heavy) == (event, [])
    assert "additionalContext" in answers[0]
    assert json.loads(answers[5])["hookSpecificOutput"]["permissionDecision"] == "deny"


async def test_a_revoked_token_costs_the_session_one_line(
    team: TeamServer, memory: Memory, tmp_path: Path
) -> None:
    token = await make_token(memory.driver, f"r-{memory.agent_id}", memory.agent_id)
    settings = team_settings(team_url(team), token_file(tmp_path, token))
    await TokenStore(memory.driver).revoke(f"r-{memory.agent_id}", utc_now())
    said, err = hook(settings, tmp_path, "SessionStart", source="startup")
    line = json.loads(said)["hookSpecificOutput"]["additionalContext"]
    assert line.startswith("Nous's memory is off for this session: the team server")
    assert "refused the token" in line and "nous tokens create" in line
    assert token not in said + err
    quiet, err = hook(settings, tmp_path, "PreToolUse", tool_name="Bash", tool_input=CALL)
    assert quiet == "" and "refused the token" in err and "nothing added" in err


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that accepts connections and never answers (a server that hangs)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        yield listener.getsockname()[1]


def test_a_down_or_hung_server_costs_one_line_within_the_hook_limit(
    tmp_path: Path, silent_server: int
) -> None:
    token = token_file(tmp_path, "nous_" + "x" * 43)
    down = team_settings(f"http://127.0.0.1:{free_port()}", token)
    started = time.monotonic()
    said, _ = hook(down, tmp_path, "SessionStart", source="startup")
    assert time.monotonic() - started < 3
    assert "connection refused" in said and "nous mcp --http" in said
    hung = team_settings(
        f"http://127.0.0.1:{silent_server}", token, NOUS_CLAUDE__HOOK_TIMEOUT_S="1.5"
    )
    started = time.monotonic()
    said, _ = hook(hung, tmp_path, "SessionStart", source="startup")
    assert time.monotonic() - started < 3
    assert "gave no answer within" in json.loads(said)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize(
    ("mode", "content", "why"),
    [
        pytest.param(0o644, "nous_" + "x" * 43, "others may read it", id="loose-mode"),
        pytest.param(0o600, "x" * 5000, "over 4096 bytes", id="huge"),
    ],
)
def test_a_token_file_that_cannot_be_used_is_named(
    tmp_path: Path, mode: int, content: str, why: str
) -> None:
    path = tmp_path / "token"
    path.write_text(content)
    path.chmod(mode)
    with pytest.raises(TeamUnavailable, match=why) as raised:
        read_token(str(path))
    assert content not in str(raised.value)
    with pytest.raises(TeamUnavailable, match="not a regular file"):
        read_token(str(tmp_path))


async def test_the_hook_endpoint_refuses_what_it_should_not_read(
    team: TeamServer, memory: Memory
) -> None:
    token = await make_token(memory.driver, f"e-{memory.agent_id}", memory.agent_id)
    auth = {"Authorization": f"Bearer {token}"}
    base = f"{team_url(team)}/hooks/"
    async with httpx.AsyncClient(timeout=30) as client:
        assert (await client.post(base + "Stop", content=b"{}")).status_code == 401
        assert (await client.post(base + "Nope", content=b"{}", headers=auth)).status_code == 404
        assert (await client.get(base + "Stop", headers=auth)).status_code == 405
        bad = await client.post(base + "Stop", content=b"\xff not json", headers=auth)
        assert bad.status_code == 400 and "not JSON" in bad.json()["error_description"]
        huge = await client.post(base + "Stop", content=b" " * (4 * 1024 * 1024 + 1), headers=auth)
        assert huge.status_code == 413
        # A transcript path names a file on the developer's machine: never opened here.
        payload = {"session_id": "t", "transcript_path": "/etc/passwd.jsonl"}
        ok = await client.post(base + "SessionEnd", json=payload, headers=auth)
        assert (ok.status_code, ok.text) == (200, "")
    assert "passwd" not in team.errlog.read_text()


async def test_what_was_said_is_kept_through_the_server_from_the_sent_transcript(
    team: TeamServer, memory: Memory, tmp_path: Path
) -> None:
    token = await make_token(memory.driver, f"t-{memory.agent_id}", memory.agent_id)
    settings = team_settings(team_url(team), token_file(tmp_path, token))
    session = Session(settings, tmp_path, "team-said-session")
    writer = TranscriptWriter(tmp_path / "t" / "team-said-session.jsonl", "team-said-session")
    where = {"transcript_path": str(writer.path)}
    await session.hook("UserPromptSubmit", prompt="Why is MAX_ATTEMPTS 7?", **where)
    writer.user("Why is MAX_ATTEMPTS 7?")
    writer.assistant("MAX_ATTEMPTS should be exactly 7; 8 trips the limiter.")
    await session.hook("Stop", last_assistant_message="MAX_ATTEMPTS should be 7", **where)
    await session.hook("UserPromptSubmit", prompt="And the backoff?", **where)
    writer.user("And the backoff?")
    writer.assistant("Backoff doubles from 250 ms.")
    await session.hook("Stop", last_assistant_message="Backoff doubles", **where)
    await session.hook("SessionEnd", reason="other", **where)  # nothing new: nothing twice

    store = TranscriptStore(memory)
    said = await store.session_utterances("team-said-session")
    assert [(u.speaker, u.text) for u in said] == [
        ("user", "Why is MAX_ATTEMPTS 7?"),
        ("assistant", "MAX_ATTEMPTS should be exactly 7; 8 trips the limiter."),
        ("user", "And the backoff?"),
        ("assistant", "Backoff doubles from 250 ms."),
    ]
    cursor = await store.cursor("team-said-session")
    assert cursor.offset == writer.path.stat().st_size and cursor.path == str(writer.path)


async def test_sent_transcript_bytes_that_do_not_start_at_the_cursor_are_not_kept(
    team: TeamServer, memory: Memory
) -> None:
    token = await make_token(memory.driver, f"s-{memory.agent_id}", memory.agent_id)
    payload = json.dumps({"session_id": "team-skew", "transcript_path": "/x/t.jsonl"}).encode()
    line = b'{"type": "user", "message": {"role": "user", "content": "planted words"}}\n'
    headers = {
        "Authorization": f"Bearer {token}",
        "X-Nous-Payload-Bytes": str(len(payload)),
        "X-Nous-Transcript-Offset": "999",  # the session's read is at 0
    }
    async with httpx.AsyncClient(timeout=30) as client:
        done = await client.post(
            f"{team_url(team)}/hooks/Stop", content=payload + line, headers=headers
        )
        assert done.status_code == 200
        headers["X-Nous-Payload-Bytes"] = "99999"  # more than the body
        bad = await client.post(
            f"{team_url(team)}/hooks/Stop", content=payload + line, headers=headers
        )
        assert bad.status_code == 400
    assert await TranscriptStore(memory).session_utterances("team-skew") == []


async def test_a_session_start_through_the_server_reads_the_servers_new_commits(
    team: TeamServer, memory: Memory, tmp_path: Path
) -> None:
    repo = team.errlog.parent / "project"  # the server's watched root, its clone
    if not (repo / ".git").exists():
        new_repo(repo)
    rule = commit(
        repo,
        f"retry: MAX_ATTEMPTS is 7 ({memory.agent_id})\n\nMeasured; do not round it to 10.",
        {f"net/retry-{memory.agent_id}.py": "MAX_ATTEMPTS = 7"},
    )
    token = await make_token(memory.driver, f"h-{memory.agent_id}", memory.agent_id)
    settings = team_settings(team_url(team), token_file(tmp_path, token))
    await Session(settings, tmp_path, "team-history-session").hook("SessionStart", source="startup")
    assert await CommitStore(memory).seen_head() == rule
