"""The intake spool's files, opened so that nothing planted in ``.nous/`` is followed.

The watched root may be a clone carrying a link, a FIFO or another user's
file where the spool should be. The spool is opened with ``O_NOFOLLOW`` (a
link is refused, never followed to its target) and ``O_NONBLOCK`` (a FIFO
with no reader is refused at once, never waited for), then checked with
``fstat`` to be a regular file of this user's. The files written beside it
(damaged bytes kept aside, a compacted copy) are always new files made with
``O_EXCL`` under a name no one could have guessed, so no planted name is
ever opened.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

_OPEN_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class NotOurSpoolError(OSError):
    """The spool's name is taken by something that is not a regular file of this user's."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(errno.EPERM, f"{path} is {what}, not a regular file of this user's")
        self.path = path
        self.what = what


def open_regular(path: Path, flags: int) -> int:
    """A descriptor of ``path``, which must be a regular file this user owns.

    Raises :class:`NotOurSpoolError` for a link, FIFO, socket, folder, device
    or another user's file (nothing is followed, waited for or changed), and
    :class:`OSError` for anything else that stops the open.
    """
    try:
        fd = os.open(path, flags | _OPEN_FLAGS, 0o600)
    except OSError as exc:
        try:
            info = os.lstat(path)
        except OSError:
            raise exc from None
        what = _foreign(info)
        if what is None:
            raise
        raise NotOurSpoolError(path, what) from None
    what = _foreign(os.fstat(fd))
    if what is not None:
        os.close(fd)
        raise NotOurSpoolError(path, what)
    return fd


@contextlib.contextmanager
def opened(path: Path, flags: int) -> Iterator[int]:
    """:func:`open_regular` for the length of a block."""
    fd = open_regular(path, flags)
    try:
        yield fd
    finally:
        os.close(fd)


def move_aside(path: Path) -> Path:
    """Rename ``path`` (whatever it is) to a fresh name beside it; return the new name.

    A rename moves a link itself, not its target, and opens nothing.
    """
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    aside = path.with_name(f"{path.name}.aside-{stamp}-{secrets.token_hex(4)}")
    os.rename(path, aside)
    return aside


def new_file_beside(path: Path, kind: str) -> tuple[int, Path]:
    """A new, empty file next to ``path``, opened for writing, under a unique name."""
    # mkstemp opens with O_CREAT | O_EXCL | O_NOFOLLOW and mode 0600: a planted name fails
    # the open and mkstemp tries another one.
    fd, name = tempfile.mkstemp(prefix=f"{path.name}.{kind}-", dir=path.parent)
    return fd, Path(name)


def write_all(fd: int, data: bytes | memoryview) -> None:
    """Write every byte of ``data`` (``os.write`` may write fewer)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _foreign(info: os.stat_result) -> str | None:
    """What the file is when it is not a regular file of ours, else None."""
    mode = info.st_mode
    kinds = (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    )
    for test, what in kinds:
        if test(mode):
            return what
    if not stat.S_ISREG(mode):
        return "not a regular file"
    if info.st_uid != os.geteuid():
        return f"owned by user {info.st_uid}"
    return None
