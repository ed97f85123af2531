"""A hook the daemon took is never redone alone; one no daemon took is.

The hook process here can reach Neo4j (the test's agent), so a hook that
wrongly worked alone beside the daemon would leave a second Turn.
"""

from __future__ import annotations

import asyncio
import io
import json
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import pytest

from graph.models import DecisionStatus
from graph.server.finder import Neo4jEndpoint
from graph.settings import load_settings
from graph.store.memory import Memory
from graph.store.turns import TurnStore
from scheduler.claude.hook_client import EXIT_MARGIN_S, FALLBACK_TIMEOUT_S, run_hook
from scheduler.claude.hook_server import HANDOVER_MARGIN_S, HookServer, answer_limit
from scheduler.claude.hook_socket import socket_path
from scheduler.claude.payload import HookAnswer, HookInput
from scheduler.claude.session import ClaudeSession
from scheduler.compose.session import build_session
from tests.support.claude_cli import nous_program
from tests.support.recall_seed import seeding

EMPTY = Path(__file__).resolve().parents[2] / "support" / "empty.yaml"
SESSION = "5d0c1e7a-3b2f-4e8a-9c61-2f7d8e9a0b1c"
OUTCOME = "the plan lost its headings"
OLD_WAIT_S = 7.5
"""How long the hook used to wait for the daemon before doing the work alone."""

Serving = Callable[..., AbstractAsyncContextManager[HookServer]]


class SlowSession(ClaudeSession):
    """The daemon's real session, which starts each hook's work ``delay_s`` late."""

    def __init__(self, real: ClaudeSession, delay_s: float) -> None:
        super().__init__(real.layer, real.turns, real.settings)
        self.delay_s = delay_s

    async def answer(self, event: str, payload: HookInput) -> HookAnswer:
        await asyncio.sleep(self.delay_s)
        return await super().answer(event, payload)


@pytest.fixture
def serving(memory: Memory) -> Serving:
    """``async with serving(root, delay_s=…, timeout_s=…, listen_at=…)``: a real HookServer."""

    @asynccontextmanager
    async def serve(
        root: Path, *, delay_s: float = 0.0, timeout_s: float = 15.0, listen_at: Path | None = None
    ) -> AsyncIterator[HookServer]:
        settings = load_settings(EMPTY, environ={"NOUS_AGENT_ID": memory.agent_id})
        session = SlowSession(build_session(memory, settings, root), delay_s)
        server = HookServer(session, root, timeout_s=timeout_s)
        if listen_at is not None:
            server.path = socket_path(listen_at)
        stop = asyncio.Event()
        task = asyncio.create_task(server.serve(stop))
        for _ in range(200):
            if server.path.exists():
                break
            await asyncio.sleep(0.05)
        try:
            yield server
        finally:
            stop.set()
            await task

    return serve


async def _prompt(root: Path, env: dict[str, str], prompt: str) -> tuple[int, str, str, float]:
    """``nous hook UserPromptSubmit`` as Claude Code runs it: exit code, stdout, stderr, seconds."""
    proc = await asyncio.create_subprocess_exec(
        str(nous_program()), "hook", "UserPromptSubmit", "--root", str(root),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=env, cwd=root,
    )  # fmt: skip
    data = json.dumps(
        {"session_id": SESSION, "hook_event_name": "UserPromptSubmit", "prompt": prompt}
    ).encode()
    started = asyncio.get_running_loop().time()
    out, err = await asyncio.wait_for(proc.communicate(data), 120)
    took = asyncio.get_running_loop().time() - started
    return proc.returncode or 0, out.decode(), err.decode(), took


@pytest.fixture
def hook_env(neo4j_env: dict[str, str], memory: Memory) -> dict[str, str]:
    """The hook process's environment: the test's Neo4j and agent, so it *could* work alone."""
    return {**neo4j_env, "NOUS_AGENT_ID": memory.agent_id}


async def test_a_daemon_slower_than_the_old_wait_answers_alone(
    serving: Serving,
    root: Path,
    hook_env: dict[str, str],
    memory: Memory,
    neo4j_endpoint: Neo4jEndpoint,
) -> None:
    async with seeding(neo4j_endpoint, memory) as seed:
        await seed.decision(
            "plan.md", outcome_success=False, outcome=OUTCOME, status=DecisionStatus.FAILED
        )
    # Half a second past the old wait: the daemon has 13 s from the hook's start (the hook's
    # 15 s less the handover margin); 1.5 s past it left too little for its own recall at
    # load 5-9 (answered 0, once).
    async with serving(root, delay_s=OLD_WAIT_S + 0.5) as daemon:
        code, out, err, took = await _prompt(root, hook_env, "Tidy plan.md please")
        assert code == 0, err
        assert took > OLD_WAIT_S, "the daemon's answer came after the old wait"
        assert daemon.answered == 1
        assert err == "", "nothing given up, nothing done twice"
    # The daemon's answer reached Claude Code, and one Turn: the hook did not open its own.
    assert OUTCOME in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    turns = await TurnStore(memory).session_turns(SESSION)
    assert [t.prompt for t in turns] == ["Tidy plan.md please"]


async def test_a_daemon_whose_time_ran_out_is_not_redone(
    serving: Serving, root: Path, hook_env: dict[str, str], memory: Memory
) -> None:
    async with serving(root, delay_s=5.0, timeout_s=2.0) as daemon:
        code, out, err, took = await _prompt(root, hook_env, "Tidy the plan please")
        assert daemon.answered == 0
    assert (code, out) == (0, "")
    [line] = err.splitlines()
    assert "no answer within 2 s" in line and line.endswith("nothing added"), err
    assert took < 5.0, "the daemon's refusal ended the hook, not its watchdog"
    assert await TurnStore(memory).session_turns(SESSION) == [], "the hook did no work alone"


async def test_a_hung_daemon_says_so_before_the_hook_gives_up(
    serving: Serving, root: Path, hook_env: dict[str, str], memory: Memory
) -> None:
    # A setting of 60 s: the daemon still answers within the hook's own fixed limit.
    async with serving(root, delay_s=60.0, timeout_s=60.0):
        code, out, err, took = await _prompt(root, hook_env, "Tidy the plan please")
    assert (code, out) == (0, "")
    limit = f"{FALLBACK_TIMEOUT_S - HANDOVER_MARGIN_S:g}"
    assert err.splitlines() == [
        "nous hook UserPromptSubmit: the daemon took the hook and did not finish: "
        f"no answer within {limit} s; nothing added"
    ]  # the daemon's refusal, not the watchdog's "gave up after 15 s"
    assert took < FALLBACK_TIMEOUT_S
    assert await TurnStore(memory).session_turns(SESSION) == []


async def test_the_full_parsers_path_does_not_redo_it_either(
    serving: Serving, root: Path, memory: Memory
) -> None:
    payload = {"session_id": SESSION, "hook_event_name": "UserPromptSubmit", "prompt": "Tidy"}
    out, err = io.StringIO(), io.StringIO()
    async with serving(root, delay_s=5.0, timeout_s=2.0):
        code = await asyncio.to_thread(
            run_hook, "UserPromptSubmit", io.BytesIO(json.dumps(payload).encode()), out, err,
            root=root,
        )  # fmt: skip
    assert (code, out.getvalue()) == (0, "")
    assert "did not finish: no answer within 2 s; nothing added" in err.getvalue()
    assert await TurnStore(memory).session_turns(SESSION) == []


@pytest.mark.parametrize("socket_kind", ["missing", "stale"])
async def test_with_no_daemon_to_take_it_the_hook_works_alone(
    socket_kind: str, root: Path, hook_env: dict[str, str], memory: Memory
) -> None:
    path = socket_path(root)
    if socket_kind == "stale":
        path.parent.mkdir(mode=0o700, exist_ok=True)
        with socket.socket(socket.AF_UNIX) as dead:
            dead.bind(str(path))  # bound, never listening: what a killed daemon leaves
    try:
        code, _out, err, _took = await _prompt(root, hook_env, "Tidy the plan please")
    finally:
        path.unlink(missing_ok=True)
    assert (code, err) == (0, "")
    assert len(await TurnStore(memory).session_turns(SESSION)) == 1, "the hook's own Turn"


async def test_a_daemon_that_refuses_the_request_leaves_the_work_to_the_hook(
    serving: Serving, root: Path, hook_env: dict[str, str], memory: Memory, tmp_path: Path
) -> None:
    # A daemon of another root listening on this root's socket (two roots' names colliding).
    other = tmp_path / "other"
    other.mkdir()
    async with serving(other, listen_at=root) as daemon:
        code, _out, err, _took = await _prompt(root, hook_env, "Tidy the plan please")
        assert daemon.answered == 0
    assert (code, err) == (0, "")
    assert len(await TurnStore(memory).session_turns(SESSION)) == 1, "the hook's own Turn"


def test_the_daemons_limit_ends_before_the_hooks() -> None:
    assert answer_limit(60) == FALLBACK_TIMEOUT_S - HANDOVER_MARGIN_S
    assert answer_limit(5) == 5
    assert answer_limit(60) + 1.0 < FALLBACK_TIMEOUT_S - EXIT_MARGIN_S, "room for the start-up"
