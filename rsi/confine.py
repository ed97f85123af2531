"""How the practice sandbox confines a child: what this machine allows, probed once.

Three layers, each used where it works:

- **namespaces** (``unshare``): a new network namespace (no interface is up,
  so no socket reaches anything) and a new PID namespace whose init is killed
  with the ``unshare`` process (``--kill-child``), so a child that starts its
  own session still dies with the run;
- **an unprivileged user** (``setpriv`` to ``nobody``) when Nous runs as root:
  ``RLIMIT_NPROC`` does not bind root, so without this a fork bomb would not
  be held; as ``nobody`` the child can also write nothing of ours and read no
  other process's environment;
- **resource limits** (:func:`limit_resources`, run in the child before exec):
  CPU seconds, 1 GiB of address space, 10 MB files, open files, processes.

Where neither namespace variant works the sandbox says so once and runs with
limits only.
"""

from __future__ import annotations

import functools
import logging
import os
import resource
import shutil
import subprocess
import sys
from dataclasses import dataclass

log = logging.getLogger(__name__)

NOBODY = 65534
ADDRESS_SPACE_BYTES = 1 << 30
FILE_SIZE_BYTES = 10 * 1000 * 1000
OPEN_FILES = 64
# Processes of the sandbox's user; pytest needs one, a test may start a few.
PROCESSES = 32
_PROBE_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class Confinement:
    """The command prefix that confines a child, and what it achieves."""

    prefix: tuple[str, ...]
    network_isolated: bool
    drops_to_nobody: bool
    note: str


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


def process_limit(drops_to_nobody: bool) -> int:
    """``RLIMIT_NPROC`` for the child.

    The limit counts every process of the child's real user. As ``nobody`` that
    is the sandbox alone; running as our own user, it must leave room for the
    processes that user already has, or pytest itself could not start.
    """
    if drops_to_nobody:
        return PROCESSES
    return _processes_of(os.getuid()) + PROCESSES


@functools.cache
def confinement() -> Confinement:
    """What this machine allows, probed once per process and said once in the log."""
    unshare, setpriv = shutil.which("unshare"), shutil.which("setpriv")
    is_root = os.geteuid() == 0
    candidates: list[tuple[tuple[str, ...], bool]] = []
    if unshare and is_root and setpriv:
        drop = (setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups")
        ns: tuple[str, ...] = (unshare, "--net", "--pid", "--fork", "--kill-child")
        candidates.append(((*ns, *drop), True))
        candidates.append((drop, True))
    if unshare and not is_root:
        ns = (unshare, "--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child")
        candidates.append((ns, False))
    for prefix, drops in candidates:
        if _works(prefix):
            isolated = bool(unshare) and prefix[0] == unshare
            note = "network and PID namespaces" if isolated else "no namespaces (limits only)"
            if drops:
                note += f", user {NOBODY}"
            if not isolated:
                log.warning("practice sandbox: `unshare` does not work here; %s", note)
            else:
                log.info("practice sandbox: %s", note)
            return Confinement(prefix, isolated, drops, note)
    log.warning(
        "practice sandbox: no namespace and no user switch works here; "
        "running with resource limits only (network not isolated)"
    )
    return Confinement((), False, False, "resource limits only")


def _works(prefix: tuple[str, ...]) -> bool:
    # The check is the sandbox's own start: this interpreter, isolated, importing pytest
    # (a Python installed where the sandbox user cannot read it fails here, not later).
    try:
        done = subprocess.run(
            [*prefix, sys.executable, "-I", "-c", "import pytest"],
            capture_output=True,
            timeout=_PROBE_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


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
