"""Wrong credentials: every call answers the error naming the settings to fix, and Neo4j sees at
most one login a minute, from ``nous mcp``, a second server and a hook alike.

Logins are counted as connections through a real TCP gate in front of the test Neo4j. The user
name is one Neo4j does not know, so Neo4j's own rate limit never touches the real user.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from graph import runtime
from graph.errors import LoginRefusedError
from graph.server.finder import Neo4jEndpoint
from graph.store import login_guard
from graph.store.driver import GraphDriver
from tests.scheduler.claude.conftest import Opener
from tests.scheduler.claude.mcp_client import call_failing
from tests.support.claude_cli import nous_program
from tests.support.tcp_gate import TcpGate

SETTINGS_NAMED = ("neo4j.user", "neo4j.password", "NEO4J_USER", "NEO4J_PASSWORD")


@pytest.fixture
def gate(neo4j_endpoint: Neo4jEndpoint) -> Iterator[TcpGate]:
    """A gate in front of the test Neo4j that counts the connections made through it."""
    where = urlsplit(neo4j_endpoint.uri)
    with TcpGate(where.hostname or "127.0.0.1", where.port or 7687) as instance:
        yield instance


async def test_a_refused_login_is_not_tried_again_by_any_process(
    nous_mcp: Opener, gate: TcpGate, neo4j_env: dict[str, str], agent_id: str, project: Path
) -> None:
    env = {**neo4j_env, "NEO4J_URI": f"bolt://127.0.0.1:{gate.port}",
           "NEO4J_USER": f"nobody-{agent_id}", "NEO4J_PASSWORD": "not-the-password"}  # fmt: skip
    answers = []
    async with nous_mcp(env=env) as session:
        answers.append(await call_failing(session, "recall", question="deploys"))
        answers.append(await call_failing(session, "censors"))
        answers.append(await call_failing(session, "remember", kind="fact", text="x", source="y"))
        answers.append(await call_failing(session, "goals"))
    async with nous_mcp(env=env) as session:  # another process, a moment later
        answers.append(await call_failing(session, "goals"))
    payload = {"session_id": "s-login", "hook_event_name": "SessionStart", "source": "startup"}
    hook = subprocess.run(
        [str(nous_program()), "hook", "SessionStart", "--root", str(project)],
        input=json.dumps(payload), env={**env, "NOUS_AGENT_ID": agent_id}, cwd=project,
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert hook.returncode == 0, hook
    assert "refused the login" in hook.stderr, hook.stderr
    # The session's first hook says so in one line (memory off, and how to find out why).
    (said,) = hook.stdout.splitlines()
    context = json.loads(said)["hookSpecificOutput"]["additionalContext"]
    assert (
        context.startswith("Nous's memory is off for this session (")
        and "refused the login" in context
    )
    for answer in answers:
        assert "refused the login" in answer, answer
        assert all(name in answer for name in SETTINGS_NAMED), answer
    assert "not tried again before" in answers[-1]
    assert gate.accepted == 1


async def test_a_login_is_tried_again_after_a_minute_or_with_other_credentials(
    gate: TcpGate, agent_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime, "RUNTIME_BASE", str(tmp_path))
    now = [1_000_000.0]
    monkeypatch.setattr(login_guard, "clock", lambda: now[0])
    monkeypatch.setattr(login_guard, "_refused", {})
    uri, user = f"bolt://127.0.0.1:{gate.port}", f"nobody-{agent_id}"

    async def login(password: str) -> None:
        driver = GraphDriver(uri, user, password)
        with pytest.raises(LoginRefusedError):
            await driver.start()

    await login("wrong")
    assert gate.accepted == 1
    now[0] += 59
    await login("wrong")
    assert gate.accepted == 1
    monkeypatch.setattr(login_guard, "_refused", {})  # a new process reads the runtime file
    await login("wrong")
    assert gate.accepted == 1
    now[0] += 2  # past the refusal's minute
    await login("wrong")
    assert gate.accepted == 2
    await login("wrong too")  # other credentials: tried at once
    assert gate.accepted == 3
