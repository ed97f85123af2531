"""One daemon per watched root: an exclusive lock on ``<root>/.nous/daemon.lock``.

Two daemons on one root would share one intake spool (each acknowledging and
compacting what the other appended) and fight over one hook socket. The lock
is ``flock`` on an open file, so the kernel drops it when the holder dies,
SIGKILL included: a crashed daemon never leaves a stale lock behind. The
holder's pid is written into the file only so the refusal can name it.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from graph.errors import RootInUseError
from graph.settings_model import state_dir

log = logging.getLogger(__name__)

LOCK_FILE = "daemon.lock"


@contextlib.contextmanager
def hold_root(root: Path) -> Iterator[Path | None]:
    """Hold ``root``'s daemon lock while the block runs; yield the lock file's path.

    Raises :class:`RootInUseError` when another process holds it. When the
    state folder cannot be written (a read-only root) or the lock's name is
    taken by something else than a regular file, the daemon runs unlocked
    with a warning naming the path, and the block gets None.
    """
    path = state_dir(root) / LOCK_FILE
    fd = _open_lock(path)
    if fd is None:
        yield None
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            raise RootInUseError(
                f"{root}: another nous daemon{holder} already watches this folder"
                f" (it holds {path}); stop it first, one daemon per root"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield path
    finally:
        os.close(fd)  # closing the only descriptor releases the lock


def _open_lock(path: Path) -> int | None:
    """The lock file's descriptor, or None (warned) when it cannot be a lock of ours.

    The root may be a clone holding a planted ``.nous/daemon.lock``: a link is
    not followed (its target would be truncated) and a FIFO or device is not
    used (opening or writing it could hang or harm); neither is removed.
    """
    flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        path.parent.mkdir(exist_ok=True)
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        log.warning("%s: cannot take the daemon lock (%s); running without it", path, exc)
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        log.warning("%s: not a regular file, so not the daemon lock; running without it", path)
        return None
    return fd


def _holder(fd: int) -> str:
    """ " (pid N)" from the lock file, or "" when it holds no pid (yet)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdigit() else ""
