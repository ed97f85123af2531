"""The running daemons of this user, so that no two watch nested roots.

Two daemons on ``r`` and ``r/sub`` would both see a change in ``r/sub`` and
both act on it. Each daemon keeps a record in a per-user folder
(``/tmp/nous-UID/daemons/``): a file holding its root and pid, under an
``flock`` it holds while it runs. A record counts only while its lock is
held, so a killed daemon leaves nothing that blocks the next one (the kernel
drops the lock; the next daemon removes the file). Checking and registering
happen under one lock on the folder, so two daemons starting at once cannot
both miss each other.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from graph.errors import RootInUseError

log = logging.getLogger(__name__)

# Safe in a shared /tmp: the folders are used only when they are this user's and closed.
REGISTRY_BASE = Path("/tmp")  # noqa: S108
_RECORD_PREFIX, _RECORD_SUFFIX = "daemon-", ".json"
_RECORD_BYTES = 64 * 1024
_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass(frozen=True)
class RunningDaemon:
    """A daemon whose record's lock is held: its root (resolved) and pid."""

    root: Path
    pid: int


def registry_folder() -> Path:
    """This user's folder of daemon records (``/tmp/nous-UID/daemons``)."""
    return REGISTRY_BASE / f"nous-{os.getuid()}" / "daemons"


@contextlib.contextmanager
def register_daemon(root: Path, folder: Path | None = None) -> Iterator[Path | None]:
    """Keep a record of a daemon on ``root`` (resolved) while the block runs; yield its path.

    Raises :class:`RootInUseError` naming the other daemon's root and pid when
    a running daemon watches ``root``, a folder inside it, or a folder that
    holds it. When the folder cannot be made this user's own, the daemon runs
    unregistered with a warning (the root's own lock still holds).
    """
    folder = registry_folder() if folder is None else folder
    if not _private_folder(folder):
        yield None
        return
    with _locked(folder):
        for other in running_daemons(folder):
            _refuse_overlap(root, other)
        fd, record = _write_record(folder, root)
    try:
        yield record
    finally:
        record.unlink(missing_ok=True)
        os.close(fd)


def running_daemons(folder: Path | None = None) -> list[RunningDaemon]:
    """The daemons whose records are locked now; stale records are removed."""
    folder = registry_folder() if folder is None else folder
    found: list[RunningDaemon] = []
    with contextlib.suppress(FileNotFoundError):
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith(_RECORD_PREFIX) and entry.name.endswith(_RECORD_SUFFIX):
                daemon = _read_record(entry)
                if daemon is not None:
                    found.append(daemon)
    return found


def _refuse_overlap(root: Path, other: RunningDaemon) -> None:
    if root == other.root:
        raise RootInUseError(
            f"{root}: another nous daemon (pid {other.pid}) already watches this folder;"
            " stop it first, one daemon per root"
        )
    if root.is_relative_to(other.root) or other.root.is_relative_to(root):
        where = "holds" if root.is_relative_to(other.root) else "lies inside"
        raise RootInUseError(
            f"{root}: another nous daemon (pid {other.pid}) watches {other.root}, which"
            f" {where} this folder; both would act on the same files: stop it first or"
            " choose a root apart from it"
        )


def _read_record(entry: Path) -> RunningDaemon | None:
    """The daemon of a record whose lock is held; None (and the file removed) when stale."""
    try:
        fd = os.open(entry, os.O_RDONLY | _FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _parse(os.pread(fd, _RECORD_BYTES, 0), entry)
        # Nobody holds it: its daemon is gone (killed or crashed). We hold the folder's lock.
        entry.unlink(missing_ok=True)
        return None
    finally:
        os.close(fd)


def _parse(data: bytes, entry: Path) -> RunningDaemon | None:
    try:
        record = json.loads(data)
        return RunningDaemon(Path(record["root"]), int(record["pid"]))
    except (ValueError, KeyError, TypeError):
        # Locked but not written yet cannot happen under the folder's lock; say it anyway.
        log.warning("%s: a daemon record that cannot be read; ignored", entry)
        return None


def _write_record(folder: Path, root: Path) -> tuple[int, Path]:
    fd, name = tempfile.mkstemp(prefix=_RECORD_PREFIX, suffix=_RECORD_SUFFIX, dir=folder)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        body = json.dumps({"root": str(root), "pid": os.getpid()}, ensure_ascii=True)
        os.write(fd, body.encode())
    except BaseException:
        os.close(fd)
        Path(name).unlink(missing_ok=True)
        raise
    return fd, Path(name)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT | _FLAGS, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # held for a directory listing: milliseconds
        yield
    finally:
        os.close(fd)


def _private_folder(folder: Path) -> bool:
    """Make ``folder`` and its parent (each 0700); True when both are this user's, closed."""
    try:
        for level in (folder.parent, folder):
            level.mkdir(mode=0o700, exist_ok=True)
            info = os.lstat(level)
            if (
                not stat.S_ISDIR(info.st_mode)
                or info.st_uid != os.geteuid()
                or stat.S_IMODE(info.st_mode) & 0o077
            ):
                log.warning(
                    "%s is not a folder of this user's closed to others; the daemon is not"
                    " registered, so a daemon on a nested root is not refused",
                    level,
                )
                return False
    except OSError as exc:
        log.warning("cannot make %s (%s); the daemon is not registered", folder, exc)
        return False
    return True
