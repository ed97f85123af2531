"""Issue 24, items 1 and 2, end to end: the real daemon with a planted spool.

A link where ``.nous/intake.spool`` should be (a cloned repository can carry
one) and, while the daemon runs, a FIFO in its place: the link's target is
never touched, the FIFO never blocks the event loop (observations still reach
Neo4j, SIGTERM still stops the daemon cleanly).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from graph.store.memory import Memory
from tests.support.daemon import Daemon

PRECIOUS = b"the user's own words\n"


async def _recorded(memory: Memory, path: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not await memory.observations_for_path(path):
        if time.monotonic() > deadline:
            pytest.fail(f"no observation of {path} within {timeout_s} s")
        await asyncio.sleep(0.2)


async def test_a_planted_link_then_a_fifo_as_the_spool_harm_nothing_and_block_nothing(
    start_daemon: Callable[..., Daemon], memory: Memory, tmp_path: Path
) -> None:
    decoy = tmp_path / "decoy"
    decoy.write_bytes(PRECIOUS)
    root = tmp_path / "root"
    (root / ".nous").mkdir(parents=True)
    spool = root / ".nous" / "intake.spool"
    spool.symlink_to(decoy)
    daemon = start_daemon(root)
    daemon.wait_for("index sync:")  # the start-up rescan ran: the watcher is armed
    (root / "a.md").write_text("a")
    await _recorded(memory, "a.md")
    # Today's code emptied the decoy at start and wrote observations into it.
    assert decoy.read_bytes() == PRECIOUS
    assert f"spool {spool} was a symbolic link" in daemon.output()
    assert [p.is_symlink() for p in (root / ".nous").glob("intake.spool.aside-*")] == [True]

    spool.unlink()
    os.mkfifo(spool)  # planted while it runs: today's daemon froze in open(O_WRONLY)
    (root / "b.md").write_text("b")
    await _recorded(memory, "b.md")
    assert daemon.stop() == 0, daemon.output()
    assert "cannot write the intake spool" in daemon.output() and "FIFO" in daemon.output()
    assert decoy.read_bytes() == PRECIOUS
