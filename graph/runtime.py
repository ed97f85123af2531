"""The user's private runtime folder, ``/tmp/nous-UID``: what Nous's processes share on a machine.

Hooks are a process each and ``nous mcp`` one per client, so what one of them
learns that the next must not repeat (a refused login, the lock of the
process embedding a session's writes) lives here, in small files. The folder
is the one the hook sockets use (:mod:`scheduler.claude.hook_socket`),
made with mode 0700 and used only while it is this user's own and private:
one another user made first in a shared ``/tmp`` is never written to.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

# Safe in a shared /tmp: the folder in it is used only when private (owned, 0700).
RUNTIME_BASE = "/tmp"  # noqa: S108
"""Where the users' runtime folders are made (tests point it elsewhere)."""


def runtime_folder() -> Path | None:
    """This user's runtime folder, made if missing; None when it is not private or cannot be."""
    folder = Path(RUNTIME_BASE) / f"nous-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    private = (
        stat.S_ISDIR(info.st_mode)
        and info.st_uid == os.getuid()
        and not stat.S_IMODE(info.st_mode) & 0o077
    )
    return folder if private else None
