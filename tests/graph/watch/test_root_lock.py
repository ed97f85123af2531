"""One daemon per root: the lock refuses a second holder, names the first, survives no crash."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graph.errors import RootInUseError
from graph.watch.root_lock import LOCK_FILE, hold_root


def test_a_second_holder_is_refused_with_the_root_and_the_first_pid(tmp_path: Path) -> None:
    with hold_root(tmp_path) as path:
        assert path == tmp_path / ".nous" / LOCK_FILE
        with pytest.raises(RootInUseError) as refused, hold_root(tmp_path):
            pass
    message = str(refused.value)
    assert str(tmp_path) in message and f"(pid {os.getpid()})" in message
    # Released with the block: the next daemon takes it.
    with hold_root(tmp_path) as again:
        assert again is not None


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    holder = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from graph.watch.root_lock import hold_root
        with hold_root(Path({str(tmp_path)!r})):
            print("held", flush=True)
            time.sleep(120)
        """
    )
    repo = Path(__file__).resolve().parents[3]
    child = subprocess.Popen(
        [sys.executable, "-c", holder], cwd=repo, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        with pytest.raises(RootInUseError, match=f"pid {child.pid}"), hold_root(tmp_path):
            pass
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        if child.stdout is not None:
            child.stdout.close()
    # The kernel dropped the lock with the process; its pid is still in the file.
    assert (tmp_path / ".nous" / LOCK_FILE).read_text().strip() == str(child.pid)
    with hold_root(tmp_path) as path:
        assert path is not None
        assert path.read_text().strip() == str(os.getpid())


def test_a_state_folder_that_cannot_be_made_runs_unlocked_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / ".nous").write_text("a file where the state folder should be")
    with caplog.at_level(logging.WARNING), hold_root(tmp_path) as path:
        assert path is None
    assert "cannot take the daemon lock" in caplog.text and ".nous" in caplog.text


def test_a_planted_link_or_fifo_is_not_used_and_its_target_is_untouched(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("the user's own words")
    root = tmp_path / "clone"
    (root / ".nous").mkdir(parents=True)
    (root / ".nous" / LOCK_FILE).symlink_to(victim)
    with caplog.at_level(logging.WARNING), hold_root(root) as path:
        assert path is None
    assert victim.read_text() == "the user's own words"
    assert str(root / ".nous" / LOCK_FILE) in caplog.text

    (root / ".nous" / LOCK_FILE).unlink()
    os.mkfifo(root / ".nous" / LOCK_FILE)  # opening it for writing must not hang
    caplog.clear()
    with caplog.at_level(logging.WARNING), hold_root(root) as path:
        assert path is None
    assert "not a regular file" in caplog.text
