"""Which folders a daemon may watch: never ``/``, the system's own folders or a whole home.

A daemon on ``/`` walks ``/proc`` and grows without bound; one on ``/etc``
writes ``/etc/.nous/`` and acts on the system's configuration. The check is
made on the resolved path, so a link to ``/etc`` is refused as ``/etc`` is,
and before anything is written. The root's state folder (``.nous``) must be a
folder, not a link: a cloned repository could carry ``.nous -> /etc``, and every
file the daemon keeps there would then be written elsewhere.
"""

from __future__ import annotations

import contextlib
import os
import pwd
from pathlib import Path

from graph.errors import RootRefusedError
from graph.settings_model import state_dir

# Refused with everything inside them: the system's own trees.
SYSTEM_TREES = tuple(
    Path(p)
    for p in (
        "/etc",
        "/proc",
        "/sys",
        "/dev",
        "/usr",
        "/bin",
        "/sbin",
        "/boot",
        "/run",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/var/lib",
        "/var/log",
        "/var/cache",
        "/var/spool",
        "/var/run",
        "/var/lock",
    )
)
# Refused themselves only: a project may live below them, never be all of them.
SYSTEM_FOLDERS = tuple(Path(p) for p in ("/", "/var", "/home", "/root", "/tmp"))  # noqa: S108


def check_root(root: Path, *, home: Path | None = None) -> Path:
    """``root`` resolved, or :class:`RootRefusedError` when no daemon may watch it.

    ``home`` is the user's home folder (None: this user's, found now), refused
    whole; a folder inside it is fine.
    """
    resolved = root.expanduser().resolve()
    shown = str(root) if resolved == root else f"{root} (that is {resolved})"
    for tree in SYSTEM_TREES:
        if resolved.is_relative_to(tree):
            where = "is" if resolved == tree else f"is inside {tree},"
            raise RootRefusedError(
                f"watch.root: {shown} {where} one of the system's own folders;"
                " a daemon there would act on the system itself: choose a project folder"
            )
    for whole in _homes(home):
        if resolved == whole:
            raise RootRefusedError(
                f"watch.root: {shown} is your whole home folder; the daemon would walk all"
                " of it (and act on your settings files): choose a project folder inside it"
            )
    if resolved in SYSTEM_FOLDERS:
        raise RootRefusedError(
            f"watch.root: {shown} is a system folder, not a project; the daemon would walk"
            " all of it (and write .nous/ into it): choose a project folder inside it"
        )
    _check_state_folder(state_dir(resolved))
    return resolved


def _check_state_folder(state: Path) -> None:
    if state.is_symlink():
        raise RootRefusedError(
            f"{state} is a symbolic link (to {os.readlink(state)}); the daemon keeps its state"
            " there and never follows a link out of the root: remove it"
        )
    if state.exists() and not state.is_dir():
        raise RootRefusedError(
            f"{state} is not a folder; the daemon keeps its state there: remove or rename it"
        )


def _homes(home: Path | None) -> set[Path]:
    if home is not None:
        return {home.resolve()}
    found = {Path(os.path.expanduser("~")).resolve()}
    with contextlib.suppress(KeyError):  # a uid with no passwd entry (a container): HOME
        found.add(Path(pwd.getpwuid(os.getuid()).pw_dir).resolve())
    return found
