"""The daemon's lifecycle: whatever ends a run, every part stops at once and the root is free.

The parts put their clean-ups on one exit stack as they start; the first
clean-up the stack runs sets the stop event, so a run ended by a
cancellation (as by an error) does not wait out the parts' flush time for
parts nobody told to stop.
"""

from __future__ import annotations

import asyncio
import io
import signal
import time
from pathlib import Path

import pytest

from graph.settings import Settings, load_settings
from graph.store.memory import Memory
from graph.watch.daemons import running_daemons
from graph.watch.root_lock import hold_root
from scheduler.app import run_daemon
from scheduler.claude.hook_socket import socket_path
from tests.support.eventually import eventually

EMPTY = Path(__file__).resolve().parents[1] / "support" / "empty.yaml"
# Far under the parts' flush time (30 s): a stop that waits for it is the defect.
PROMPT_S = 10.0


def _settings(root: Path, env: dict[str, str], agent_id: str) -> Settings:
    return load_settings(
        EMPTY,
        environ=env,
        overrides={
            "watch.root": str(root),
            "agent_id": agent_id,
            "reasoner": "rules",
            "executors.dry_run": True,
            "neo4j.guide_port": None,
        },
    )


class ClosedPipe(io.StringIO):
    """Standard output whose reader went away: every write fails, as a closed pipe's does."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


async def _until(text: str, out: io.StringIO, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while text not in out.getvalue():
        assert time.monotonic() < deadline, out.getvalue()
        await asyncio.sleep(0.05)


async def test_a_cancelled_run_stops_every_part_at_once_and_frees_the_root(
    tmp_path: Path, neo4j_env: dict[str, str], memory: Memory
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "note.md").write_text("a note\n")
    settings = _settings(root, neo4j_env, memory.agent_id)
    out = io.StringIO()
    before = asyncio.all_tasks()
    daemon = asyncio.create_task(run_daemon(settings, neo4j_env, out=out))
    await _until("  recovered ", out)  # built, reconciled, banner printed, parts starting

    async def serving() -> bool:
        return socket_path(root).exists()

    await eventually(serving, "the hook socket served while the daemon runs", timeout_s=30)
    began = time.monotonic()
    daemon.cancel()
    with pytest.raises(asyncio.CancelledError):
        await daemon
    took = time.monotonic() - began
    assert took < PROMPT_S, f"stopping took {took:.1f} s"
    # Every part ended: no task of the daemon's is left running (writer, watcher, jobs, hooks).
    left = [f"{t.get_name()}: {t.get_coro()}" for t in asyncio.all_tasks() - before if not t.done()]
    assert left == [], left
    assert not socket_path(root).exists(), "the hook socket was not closed"
    stopped = await memory.audit.latest_events("daemon_stopped", 1)
    assert stopped, "the episode was not ended (no daemon_stopped event)"
    assert all(d.root != root.resolve() for d in running_daemons()), "still registered"
    with hold_root(root):  # released: a second daemon could take it now
        pass
    assert "nous stopped" not in out.getvalue()  # a cancelled run reports nothing as done


async def test_a_run_that_fails_at_start_closes_what_it_opened(
    tmp_path: Path, neo4j_env: dict[str, str], memory: Memory
) -> None:
    """An error after the parts are built (here the banner, to a closed pipe) unwinds them all.

    Before the one stack, an error between the build and the parts' start left the episode
    open, the driver and the LLM client unclosed and the signal handlers installed.
    """
    root = tmp_path / "root"
    root.mkdir()
    # SIGTERM's handler comes back as it was (SIGINT's goes to Python's default: asyncio's way).
    sigterm = signal.getsignal(signal.SIGTERM)
    settings = _settings(root, neo4j_env, memory.agent_id)
    with pytest.raises(BrokenPipeError):
        await run_daemon(settings, neo4j_env, out=ClosedPipe())
    started = await memory.audit.latest_events("daemon_started", 1)
    assert started, "the run did not get as far as building its parts"
    stopped = await memory.audit.latest_events("daemon_stopped", 1)
    assert stopped, "the episode was left open (no daemon_stopped event)"
    assert signal.getsignal(signal.SIGTERM) == sigterm, "the signal handler was left behind"
    with hold_root(root):
        pass
