"""What recall may show of a file: its head, read inside the watched root only.

A path that leaves the root (absolute, ``..``, a symlinked parent leading
out), a symbolic link, anything but a regular file, a binary file or one
that cannot be read gives a :class:`FileView` without content that says why.
The file is opened with ``O_NOFOLLOW`` and checked again after opening, so a
symlink swapped in between the check and the read is refused too.
"""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path

from cognition.schemas import FileView
from graph.errors import PathOutsideRootError
from graph.watch.files import BINARY_SNIFF_BYTES, inside_root

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def read_file_view(root: Path, rel_path: str, max_bytes: int) -> FileView:
    """The file at ``rel_path`` below ``root``, with at most ``max_bytes`` of its text.

    Blocking: call it through :func:`asyncio.to_thread` from async code.
    """
    try:
        path = inside_root(root, rel_path)
    except PathOutsideRootError:
        return FileView(path=rel_path, exists=False, error="path outside the watched root")
    if path is None:
        return FileView(path=rel_path, exists=False, error="path leads outside the watched root")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return FileView(path=rel_path, exists=False)
    except OSError as exc:
        return FileView(path=rel_path, exists=False, error=f"cannot stat: {exc.strerror}")
    if stat.S_ISLNK(st.st_mode):
        return FileView(path=rel_path, exists=True, error="symbolic link, not followed")
    if not stat.S_ISREG(st.st_mode):
        return FileView(path=rel_path, exists=True, error="not a regular file")
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        return FileView(path=rel_path, exists=False)
    except OSError as exc:
        return FileView(path=rel_path, exists=True, size=st.st_size, error=_why(exc))
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(handle.fileno())
        if not stat.S_ISREG(st.st_mode):
            return FileView(path=rel_path, exists=True, error="not a regular file")
        try:
            data = handle.read(max(max_bytes, BINARY_SNIFF_BYTES))
        except OSError as exc:
            return FileView(path=rel_path, exists=True, size=st.st_size, error=_why(exc))
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        return FileView(path=rel_path, exists=True, size=st.st_size, binary=True)
    # An incremental decoder drops a character cut in half at the end instead of garbling it.
    head = codecs.getincrementaldecoder("utf-8")("replace").decode(data[:max_bytes], final=False)
    return FileView(path=rel_path, exists=True, size=st.st_size, content_head=head)


def _why(exc: OSError) -> str:
    if exc.errno is not None and exc.errno == getattr(os, "ELOOP", -1):
        return "symbolic link, not followed"
    return f"cannot read: {exc.strerror}"
