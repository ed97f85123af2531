"""Test sessions that share one Maven-run Neo4j stop it only when the last of them ends.

The first ``pytest`` on a machine with no Neo4j starts one from its own home; a
second session started meanwhile (a clean-clone CI run beside a developer's
``pytest -k``) finds it answering on the same port and uses it. Stopped by the
session that started it as soon as that one ended, the server went away under
the other, which then errored on every test that was left.

Each session holds a lease: a file named by its pid in a directory shared by
every session on the machine for that port. The session that started the
server stops it when it leaves if no other live session holds a lease;
otherwise it writes the server's home into the directory, and the last session
to leave stops the server found there. A lease whose process is gone (a
session killed, or a zombie) does not count. An ``flock`` on the directory's lock file
keeps two sessions ending at once from both missing the hand-off.
"""

from __future__ import annotations

import fcntl
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graph.server.maven import is_alive

HANDED_OFF = "stop-home"


def lease_dir(port: int, root: Path | None = None) -> Path:
    """The directory every session on this machine shares for the server on ``port``."""
    base = root if root is not None else Path(tempfile.gettempdir())
    folder = base / f"nous-test-neo4j-{port}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    with open(folder / "lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def take(folder: Path, pid: int) -> None:
    """Record that session ``pid`` uses the server."""
    with _locked(folder):
        (folder / str(pid)).touch()


def leave(folder: Path, pid: int, started_home: Path | None) -> Path | None:
    """End session ``pid``'s lease; the home of the server to stop now, or None.

    ``started_home`` is the server's home when this session started it. It is
    returned when no other live session holds a lease, else handed to the last.
    """
    with _locked(folder):
        (folder / str(pid)).unlink(missing_ok=True)
        others = [p for p in folder.iterdir() if p.name.isdigit() and is_alive(int(p.name))]
        handed = folder / HANDED_OFF
        if started_home is not None:
            if others:
                handed.write_text(str(started_home), encoding="utf-8")
                return None
            return started_home
        if others or not handed.exists():
            return None
        home = Path(handed.read_text(encoding="utf-8").strip())
        handed.unlink()
        return home
