"""The daemon's lifecycle: whatever ends a run, every part stops at once and the root is free.

The parts put their clean-ups on one exit stack as they start; the first
clean-up the stack runs sets the stop event, so a run ended by a
cancellation (as by an error) does not wait out the parts' flush time for
parts nobody told to stop.
"""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path

import pytest

from graph.settings import load_settings
from graph.store.memory import Memory
from graph.watch.daemons import running_daemons
from graph.watch.root_lock import hold_root
from scheduler.app import run_daemon
from scheduler.claude.hook_socket import socket_path

EMPTY = Path(__file__).resolve().parents[1] / "support" / "empty.yaml"
# Far under the parts' flush time (30 s): a stop that waits for it is the defect.
PROMPT_S = 10.0


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
    settings = load_settings(
        EMPTY,
        environ=neo4j_env,
        overrides={
            "watch.root": str(root),
            "agent_id": memory.agent_id,
            "reasoner": "rules",
            "executors.dry_run": True,
            "neo4j.guide_port": None,
        },
    )
    out = io.StringIO()
    before = asyncio.all_tasks()
    daemon = asyncio.create_task(run_daemon(settings, neo4j_env, out=out))
    await _until("  recovered ", out)  # built, reconciled, banner printed, parts starting
    await asyncio.sleep(1.0)
    assert socket_path(root).exists(), "the hook socket is served while the daemon runs"
    began = time.monotonic()
    daemon.cancel()
    with pytest.raises(asyncio.CancelledError):
        await daemon
    took = time.monotonic() - began
    assert took < PROMPT_S, f"stopping took {took:.1f} s"
    # Every part ended: no task of the daemon's is left running (writer, watcher, jobs, hooks).
    left = [t.get_name() for t in asyncio.all_tasks() - before if not t.done()]
    assert left == [], left
    assert not socket_path(root).exists(), "the hook socket was not closed"
    stopped = await memory.audit.latest_events("daemon_stopped", 1)
    assert stopped, "the episode was not ended (no daemon_stopped event)"
    assert all(d.root != root.resolve() for d in running_daemons()), "still registered"
    with hold_root(root):  # released: a second daemon could take it now
        pass
    assert "nous stopped" not in out.getvalue()  # a cancelled run reports nothing as done
