"""How the practice sandbox confines a child: what this machine allows, probed once.

Four layers, each used where it works:

- **a mount namespace** (:mod:`rsi.mounts`: bubblewrap where present, else
  ``unshare --mount``): the filesystem read-only, the working folder a
  private, empty tmpfs on ``/tmp`` that vanishes with the run;
- **network and PID namespaces**: no interface is up, so no socket reaches
  anything; the PID namespace's init dies with the run, so a child that
  starts its own session still dies with it;
- **an unprivileged user** (``setpriv``) when Nous runs as root: a user id of
  the run's own, drawn from a range no account uses (``nobody`` where the
  kernel maps no such id). ``RLIMIT_NPROC`` does not bind root, so without a
  drop a fork bomb would not be held; and since the limit counts every process
  of the user across the machine, a user shared by all runs (``nobody``) makes
  two sandboxes at once, from two daemons or one daemon and a test suite, fail
  each other's ``fork()``. The child can read nothing private of ours and no
  other process's environment, nor signal another run;
- **resource limits** (:func:`limit_resources`, run in the child before exec):
  CPU seconds, 1 GiB of address space, 10 MB files, open files, processes.

Each way is probed by running a small script as a practice run would (it must
write its folder and, with a mount namespace, nothing else); the first that
works is used, and a machine that offers no mount namespace is said loudly.
:func:`describe` is the line the banner and ``nous status`` show.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rsi import mounts

log = logging.getLogger(__name__)

NOBODY = 65534
# A run's own user and group id are drawn from here (above any account or subordinate id
# range in common use; below 2**31, which some tools read as signed).
RUN_IDS_FIRST = 1_800_000_000
RUN_IDS_COUNT = 100_000_000
ADDRESS_SPACE_BYTES = 1 << 30
FILE_SIZE_BYTES = 10 * 1000 * 1000
OPEN_FILES = 64
# Processes of the sandbox's user; pytest needs one, a test may start a few.
PROCESSES = 32
_PROBE_TIMEOUT_S = 20.0
NO_MOUNT = "no mount namespace"


@dataclass(frozen=True)
class Confinement:
    """How a run is confined here: its mount namespace (if any), the rest, and what it achieves."""

    mount: str  # mounts.BUBBLEWRAP, mounts.UNSHARE, or NO_MOUNT
    tool: str  # the path of bwrap or unshare ("" when neither is used)
    as_root: bool
    namespaces: tuple[str, ...]  # without a mount namespace: the unshare prefix, if any
    network_isolated: bool
    drops_user: bool
    note: str
    # Each run as a user of its own (else every run as nobody); probed like the rest.
    own_user: bool = False

    def run_user(self) -> int:
        """The user (and group) id one run is to have: a fresh one, or nobody."""
        return RUN_IDS_FIRST + secrets.randbelow(RUN_IDS_COUNT) if self.own_user else NOBODY

    @property
    def private_tmp(self) -> bool:
        """Whether the run works in a private tmpfs, the rest of the filesystem read-only."""
        return self.mount != NO_MOUNT

    def work_dir(self, folder: Path) -> Path:
        """Where the run works (its cwd, HOME and TMPDIR), as the run sees it; ``folder``
        is that place outside a mount namespace."""
        return mounts.WORK_DIR if self.private_tmp else folder

    def files_dir(self, folder: Path) -> Path:
        """Where the run's files, written to ``folder``, are as the run sees them."""
        return mounts.FILES_DIR if self.private_tmp else folder

    def argv(self, folder: Path, command: Sequence[str], user: int = NOBODY) -> list[str]:
        """The command line for ``command`` (its files under :meth:`files_dir`), whose files
        lie in ``folder``, run as ``user`` when this way drops the user. With ``unshare``
        it must start in ``folder``."""
        drop = _drop(user) if self.drops_user else []
        if self.mount == mounts.BUBBLEWRAP:
            prefix = mounts.bubblewrap(self.tool, self.as_root, folder)
        elif self.mount == mounts.UNSHARE:
            prefix = mounts.unshare_mount(self.tool, self.as_root)
        else:
            prefix = list(self.namespaces)
        return [*prefix, *drop, *command]


def limit_resources(cpu_seconds: int, processes: int) -> None:
    """Set the child's resource limits; runs in the child between fork and exec.

    Only async-signal-safe work here: no logging, no allocation-heavy calls.
    """
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_BYTES, ADDRESS_SPACE_BYTES))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_BYTES, FILE_SIZE_BYTES))
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))
    resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def process_limit(drops_user: bool) -> int:
    """``RLIMIT_NPROC`` for the child.

    The limit counts every process of the child's real user. As a user of its
    own that is the run alone (as ``nobody``, every run on the machine); running
    as our own user, it must leave room for the processes that user already has,
    or pytest itself could not start.
    """
    if drops_user:
        return PROCESSES
    return _processes_of(os.getuid()) + PROCESSES


def describe() -> str:
    """One line on how practice code is confined here, for the banner and ``nous status``.

    Never raises: a probe that fails in a way nobody foresaw is said here and in a
    WARNING, and the daemon (or ``nous status``) goes on without practice.
    """
    try:
        return confinement().note
    except Exception as exc:
        log.warning("practice sandbox: the probe failed: %r", exc)
        return f"unknown: the probe failed ({type(exc).__name__}: {exc})"


@functools.cache
def confinement() -> Confinement:
    """What this machine allows, probed once per process and said once in the log."""
    for candidate in candidates():
        try:
            usable = works(candidate)
        except Exception as exc:
            log.warning("practice sandbox: probing %s failed: %r", candidate.note, exc)
            usable = False
        if usable:
            if candidate.private_tmp:
                log.info("practice sandbox: %s", candidate.note)
            else:
                log.warning("practice sandbox: no mount namespace works here; %s", candidate.note)
            return candidate
    log.warning(
        "practice sandbox: no namespace and no user switch works here; "
        "running with resource limits only (network not isolated, filesystem writable)"
    )
    return _candidate(NO_MOUNT, "", os.geteuid() == 0, (), False)


def candidates() -> list[Confinement]:
    """The ways this machine's tools offer, best first (each still to be probed)."""
    bwrap, unshare = shutil.which("bwrap"), shutil.which("unshare")
    as_root = os.geteuid() == 0
    drops = as_root and shutil.which("setpriv") is not None
    if as_root and not drops:
        log.warning("practice sandbox: running as root without setpriv; code would run as root")
    candidates: list[Confinement] = []
    if bwrap and (drops or not as_root):
        candidates += _users(_candidate(mounts.BUBBLEWRAP, bwrap, as_root, (), drops))
    if unshare and (drops or not as_root):
        candidates += _users(_candidate(mounts.UNSHARE, unshare, as_root, (), drops))
        user = () if as_root else ("--user", "--map-root-user")
        ns = (unshare, *user, "--net", "--pid", "--fork", "--kill-child")
        candidates += _users(_candidate(NO_MOUNT, "", as_root, ns, drops))
    if drops:
        candidates += _users(_candidate(NO_MOUNT, "", as_root, (), drops))
    return candidates


def _users(way: Confinement) -> list[Confinement]:
    """A way that drops the user: first with a user per run, then as nobody."""
    if not way.drops_user:
        return [way]
    own = way.note.replace(f"user {NOBODY}", "a user of its own per run")
    return [dataclasses.replace(way, own_user=True, note=own), way]


def _candidate(
    mount: str, tool: str, as_root: bool, namespaces: tuple[str, ...], drops: bool
) -> Confinement:
    isolated = mount != NO_MOUNT or bool(namespaces)
    parts = [
        f"{mount}: read-only filesystem, private /tmp"
        if mount != NO_MOUNT
        else f"{NO_MOUNT} (filesystem writable)",
        "no network" if isolated else "network not isolated",
    ]
    if drops:
        parts.append(f"user {NOBODY}")
    parts.append("rlimits")
    return Confinement(mount, tool, as_root, namespaces, isolated, drops, ", ".join(parts))


def _drop(user: int) -> list[str]:
    setpriv = shutil.which("setpriv") or "setpriv"
    return [setpriv, f"--reuid={user}", f"--regid={user}", "--clear-groups"]


def works(candidate: Confinement) -> bool:
    """Run the probe as a practice run would: it must import pytest (the interpreter and
    its packages are readable by the sandbox's user), write its working folder, and,
    with a mount namespace, see only its files there and write nothing elsewhere.

    Whether we may hand the folder to the run's user is decided by trying: a root
    without CAP_CHOWN (or CAP_SETUID, which ``setpriv`` needs), or a kernel that maps
    no such user id, makes the candidate not work, it does not raise."""
    try:
        folder = Path(tempfile.mkdtemp(prefix="nous-probe-"))
    except OSError as exc:
        log.warning("practice sandbox: no folder for the probe: %s", exc)
        return False
    try:
        return _probe(candidate, folder)
    except OSError as exc:
        log.debug("practice sandbox: %s does not work: %s", candidate.note, exc)
        return False
    finally:
        remove_folder(folder)


def _probe(candidate: Confinement, folder: Path) -> bool:
    (folder / "probe.py").write_text(_PROBE, encoding="utf-8")
    user = candidate.run_user()
    if candidate.drops_user:
        folder.chmod(0o711)  # still passable for us (cwd) once the run's user owns it
        hand_to([folder / "probe.py", folder], user)  # the folder last: we could not reach in
    outside = [str(p) for p in (Path.home(), Path.cwd(), Path("/var/tmp"), Path("/dev/shm"))]  # noqa: S108
    script = str(candidate.files_dir(folder) / "probe.py")
    # The interpreter's own folders under /tmp, if any, are the other names /tmp may hold.
    tmp = mounts.WORK_DIR.resolve()
    interpreter = "/".join(
        sorted({p.relative_to(tmp).parts[0] for p in mounts.interpreter_in_tmp()})
    )
    command = [
        sys.executable,
        "-I",
        "-B",
        script,
        str(candidate.private_tmp),
        interpreter,
        *outside,
    ]
    try:
        done = subprocess.run(
            candidate.argv(folder, command, user),
            cwd=folder,
            capture_output=True,
            timeout=_PROBE_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    if done.returncode != 0:
        log.debug("practice sandbox: %s does not work: %s", candidate.note, done.stderr[-500:])
    return done.returncode == 0


def hand_to(paths: Sequence[Path], user: int) -> None:
    """Give ``paths`` to ``user`` (and the group of that id), in order (a folder after
    what is inside it: a root without CAP_DAC_OVERRIDE cannot reach into a folder it has
    given away).

    Raises :class:`PermissionError` where we may not (no CAP_CHOWN)."""
    for path in paths:
        os.chown(path, user, user)


def remove_folder(folder: Path) -> None:
    """Remove a probe's or a run's folder; never raises, leaves at worst a warning.

    What the run's user owns there, a root without CAP_DAC_OVERRIDE can neither list nor
    empty: it is taken back first (chown needs only CAP_CHOWN), top down."""
    shutil.rmtree(folder, ignore_errors=True)
    if not folder.exists():
        return
    _take_back(folder)
    shutil.rmtree(folder, ignore_errors=True)
    if folder.exists():
        log.warning("practice sandbox: could not remove %s", folder)


def _take_back(path: Path) -> None:
    try:
        os.chown(path, os.geteuid(), os.getegid(), follow_symlinks=False)
        if path.is_dir() and not path.is_symlink():
            for entry in os.scandir(path):
                _take_back(Path(entry.path))
    except (OSError, RecursionError):
        return  # best effort: what is left is said by remove_folder


# The probe's own code, written beside it as a file; argv: private_tmp, the names of the
# interpreter's folders in /tmp (joined by /), then folders to try.
_PROBE = """import os, sys
import pytest
with open("scratch", "w") as f:
    f.write("the working folder is writable")
if sys.argv[1] == "True":
    if sorted(set(os.listdir(".")) - set(sys.argv[2].split("/"))) != ["scratch", "task"]:
        sys.exit("the working folder is not private")
    try:
        open("task/planted", "w").close()
    except OSError:
        pass
    else:
        sys.exit("the run's files are writable")
    for folder in sys.argv[3:]:
        path = os.path.join(folder, "nous-probe-%d" % os.getpid())
        try:
            open(path, "w").close()
        except OSError:
            continue
        os.unlink(path)
        sys.exit("wrote " + path)
"""


def _processes_of(uid: int) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    count += 1
            except OSError:
                continue  # ended while we looked
    return count
