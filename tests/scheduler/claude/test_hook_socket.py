"""A running daemon answers hooks through its socket; without one the hook works alone."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import tempfile
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from graph.models import DecisionStatus
from graph.server.finder import Neo4jEndpoint
from graph.settings import load_settings
from graph.store.memory import Memory
from graph.store.turns import TurnStore
from scheduler.claude import hook_socket
from scheduler.claude.hook_server import HookServer
from scheduler.claude.hook_socket import DaemonUnavailable, ask_daemon, socket_address, socket_path
from scheduler.compose.session import build_session
from tests.support.claude_cli import nous_program
from tests.support.daemon import Daemon
from tests.support.recall_seed import seeding

EMPTY = Path(__file__).resolve().parents[2] / "support" / "empty.yaml"
SESSION = "0b6f3a0e-9d3c-4a61-8f0e-5a1e2c3d4b5f"
OUTCOME = "the plan lost its headings"


def _dead_uri() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"bolt://127.0.0.1:{probe.getsockname()[1]}"


@pytest.fixture
async def daemon(root: Path, memory: Memory) -> AsyncIterator[HookServer]:
    settings = load_settings(EMPTY, environ={"NOUS_AGENT_ID": memory.agent_id})
    server = HookServer(build_session(memory, settings, root), root, timeout_s=30)
    stop = asyncio.Event()
    serving = asyncio.create_task(server.serve(stop))
    for _ in range(200):
        if socket_path(root).exists():
            break
        await asyncio.sleep(0.05)
    yield server
    stop.set()
    await serving
    assert not socket_path(root).exists(), "the socket is removed when the daemon stops"


async def _hook(root: Path, event: str, payload: dict[str, object]) -> tuple[int, str, str]:
    # Neo4j is unreachable for the hook process itself: only the daemon can answer.
    env = {"PATH": "/usr/bin:/bin", "NEO4J_URI": _dead_uri(), "NOUS_CLAUDE__HOOK_TIMEOUT_S": "5"}
    proc = await asyncio.create_subprocess_exec(
        str(nous_program()), "hook", event, "--root", str(root),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=env, cwd=root,
    )  # fmt: skip
    data = json.dumps({"session_id": SESSION, "hook_event_name": event, **payload}).encode()
    out, err = await asyncio.wait_for(proc.communicate(data), 120)
    return proc.returncode or 0, out.decode(), err.decode()


async def test_the_daemon_answers_the_hook(
    daemon: HookServer, root: Path, memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    async with seeding(neo4j_endpoint, memory) as seed:
        await seed.decision(
            "plan.md", outcome_success=False, outcome=OUTCOME, status=DecisionStatus.FAILED
        )
    code, out, err = await _hook(root, "UserPromptSubmit", {"prompt": "Tidy plan.md please"})
    assert code == 0, err
    assert daemon.answered == 1
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert OUTCOME in context
    # The Turn and pre_turn's turn_started event, written together, name the same episode.
    [turn] = await TurnStore(memory).session_turns(SESSION)
    [started] = await memory.events.events("turn_started")
    assert started.data == {
        "frame": turn.frame, "decision_id": turn.decision_id, "episode_id": turn.episode_id
    }  # fmt: skip
    assert turn.episode_id is not None
    code, out, err = await _hook(root, "Stop", {"last_assistant_message": "Tidied."})
    assert (code, out) == (0, "") and daemon.answered == 2


async def test_a_stale_socket_means_the_hook_works_alone(root: Path) -> None:
    path = socket_path(root)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    with socket.socket(socket.AF_UNIX) as dead:
        dead.bind(str(path))  # bound, never listening: what a killed daemon leaves
    code, out, err = await _hook(root, "UserPromptSubmit", {"prompt": "hello"})
    assert (code, out) == (0, "")
    assert "does not answer" in err and "nothing added" in err
    path.unlink()


async def test_the_running_daemon_answers_for_its_root(
    start_daemon: Callable[..., Daemon], tmp_path: Path, memory: Memory
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    daemon = start_daemon(project)
    daemon.wait_for("observations 0 ", timeout_s=120)
    assert socket_path(project).exists(), "the daemon listens for the project's hooks"
    code, _out, err = await _hook(project, "SessionStart", {"source": "startup"})
    assert code == 0, err
    # The hook process could not reach Neo4j: the episode is the daemon's doing.
    assert await memory.episodes.open_episode(SESSION) is not None
    assert daemon.stop() == 0
    assert not socket_path(project).exists()


@pytest.mark.parametrize("mode", [0o700, 0o755])
def test_the_hook_asks_only_through_a_private_folder(
    mode: int, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A socket base of the test's own, so the real one other daemons use is left alone.
    temp = Path(tempfile.mkdtemp(prefix="nt-", dir="/tmp"))
    monkeypatch.setattr(hook_socket, "SOCKET_BASE", str(temp))
    path = socket_path(root)
    path.parent.mkdir(mode=mode)
    path.parent.chmod(mode)  # mkdir's mode passes through the umask
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
        listener.listen(1)

        def answer_once() -> None:
            conn, _ = listener.accept()
            with conn, contextlib.suppress(OSError):  # the wake-up below reads nothing
                conn.recv(65536)
                conn.sendall(b"Afrom the socket")  # an answer: "A", then its text

        server = threading.Thread(target=answer_once, daemon=True)
        server.start()
        try:
            if mode == 0o700:
                assert ask_daemon(root, "Stop", b"{}", wait_s=5) == "from the socket"
            else:
                with pytest.raises(DaemonUnavailable, match="not this user's private folder"):
                    ask_daemon(root, "Stop", b"{}", wait_s=5)
        finally:
            if server.is_alive():  # never asked: let the accept return
                with socket.socket(socket.AF_UNIX) as wake:
                    wake.connect(str(path))
            server.join(5)
    shutil.rmtree(temp)


def _exchange(path: Path, request: bytes) -> bytes:
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(30)
        conn.connect(str(path))
        conn.sendall(request)
        conn.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


async def test_the_daemon_refuses_what_it_cannot_answer(daemon: HookServer, root: Path) -> None:
    real = str(root.resolve()).encode()
    cases = {
        b"garbage without separators": "expected EVENT NUL ROOT NUL PAYLOAD",
        b"Nope\0" + real + b"\0{}": "no such hook event",
        b"Stop\0/somewhere/else\0{}": "this daemon watches",
        b"Stop\0" + real + b"\0\xff\xfe not json": "stdin is not JSON",
        b"Stop\0" + real + b"\0[1, 2]": "not a JSON object",
    }
    for request, said in cases.items():
        reply = await asyncio.to_thread(_exchange, socket_path(root), request)
        assert reply.startswith(b"E") and said in reply.decode(), (request, reply)
    assert daemon.answered == 0
    # The hook hears the refusal as no daemon, and does the work itself (or adds nothing).
    with pytest.raises(DaemonUnavailable, match="bad payload field"):
        await asyncio.to_thread(ask_daemon, root / ".", "Stop", b"{}", 30)


def test_a_root_whose_name_is_not_utf8_has_a_socket_of_its_own(tmp_path: Path) -> None:
    odd = tmp_path / os.fsdecode(b"caf\xe9")  # Latin-1 bytes: not UTF-8
    plain = tmp_path / "cafe"
    assert socket_address(odd) != socket_address(plain)
    assert socket_address(odd) == socket_address(odd)


async def test_an_event_the_table_keeps_from_the_daemon_is_refused(
    daemon: HookServer, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scheduler.claude import events

    spec = events.HookEvent("ScratchEvent", "stop", daemon=False)
    monkeypatch.setitem(events.BY_NAME, spec.name, spec)
    payload = json.dumps({"session_id": SESSION}).encode()
    request = b"ScratchEvent\0" + str(root.resolve()).encode() + b"\0" + payload
    reply = await asyncio.to_thread(_exchange, socket_path(root), request)
    assert reply == b"EScratchEvent is answered by the hook alone"
    assert daemon.answered == 0
