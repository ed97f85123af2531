"""The practice run's folder on the host: its files laid out, its working folder, its environment.

``folder/in`` holds the run's files (the runner, the solution, a generated
problem's tests), Nous's own and only readable to the run (a mount namespace
binds or copies them read-only to ``/tmp/task``); ``folder/work`` is where the
run works when there is no mount namespace (handed to the run's user); the
report lies beside them, and the checks' file too, never inside.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from rsi.confine import Confinement, hand_to
from rsi.errors import RSIError

UNSEEN_FILE = "checks"
REPORT_FILE = "report"
INPUTS_DIR = "in"
SCRATCH_DIR = "work"


def lay_out(folder: Path, files: Mapping[str, str], conf: Confinement, user: int) -> str | None:
    """Write ``files`` to ``folder/in`` (ours, readable, not writable by the run) and make the
    run's working folder ``folder/work``; None, or why the run cannot start.

    The run's files stay ours: what the solution writes never lies beside the tests or
    the checker (a ``conftest.py``), with or without a mount namespace.
    """
    inputs, scratch = folder / INPUTS_DIR, folder / SCRATCH_DIR
    inputs.mkdir()
    scratch.mkdir()
    for name, text in files.items():
        (inputs / name).write_text(text, encoding="utf-8")
        (inputs / name).chmod(0o644)
    inputs.chmod(0o755)
    if not conf.drops_user:
        return None
    try:
        # The folder stays ours (we write the output there and remove it), only passable;
        # the run's user owns its working folder and the report (pytest reopens
        # /dev/fd/N, which checks the file's owner).
        folder.chmod(0o711)
        hand_to([scratch, folder / REPORT_FILE], user)
    except OSError as exc:
        return f"cannot hand the practice folder to user {user}: {exc}"
    return None


def unseen_file(folder: Path, text: str | None) -> list[int]:
    """A read-only descriptor of a new file holding ``text``, ours alone ([] without text)."""
    if text is None:
        return []
    path = folder / UNSEEN_FILE
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
    # The run reads it through this descriptor: as nobody it could not open the file.
    return [os.open(path, os.O_RDONLY | os.O_CLOEXEC)]


def make_folder(root: Path | None) -> Path:
    """A fresh folder in the system's temporary space, which must lie outside the watched root."""
    folder = Path(tempfile.mkdtemp(prefix="nous-practice-")).resolve()
    if root is not None and folder.is_relative_to(root.resolve()):
        shutil.rmtree(folder, ignore_errors=True)
        raise RSIError(f"the practice folder {folder} lies inside the watched root {root}")
    return folder


def environment(work: Path) -> dict[str, str]:
    """The run's whole environment, ``work`` its HOME and TMPDIR."""
    # Built from nothing rather than stripped from ours: no NEO4J_*, NOUS_* or key can leak.
    # HOME and TMPDIR are the working folder: the private /tmp, or the run's own folder.
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(work),
        "TMPDIR": str(work),
        "LANG": "C.UTF-8",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
