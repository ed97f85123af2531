"""``nous hook EVENT``'s first step: hand the hook to the running daemon, importing almost nothing.

Claude Code starts a process per hook and waits for it, so what this process
imports before it asks the daemon is paid at every prompt and tool call.
This module and :mod:`scheduler.claude.hook_socket` use only what a bare
interpreter has loaded or nearly (no ``argparse``, ``threading``,
``typing`` at run time, ``pathlib``, ``tempfile`` or ``socket.py``): the
common arguments are read by hand, the watchdog is a ``SIGALRM`` timer. Any
other case goes to :mod:`scheduler.claude.hooks` with what was read so far:
options for another settings file or agent, arguments to explain, and
every hook no daemon took, which the hook then does alone.

A hook the daemon took is never redone here: the client waits for its
answer until its own hard limit (:data:`FALLBACK_TIMEOUT_S`, less
:data:`EXIT_MARGIN_S` to print and exit), and without one it adds nothing
and says so (see :mod:`scheduler.claude.hook_socket` for what "took"
means). The daemon answers within a shorter limit of its own
(:func:`scheduler.claude.hook_server.answer_limit`), so its refusal arrives
before this process gives up.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Sequence
from io import BytesIO

from scheduler.claude.events import EVENTS
from scheduler.claude.hook_socket import DaemonUnavailable, ask_daemon

FALLBACK_TIMEOUT_S = 15.0
"""The hard limit until the settings are read (they may be what hangs).

A hook the daemon answers reads no settings, so this is its whole limit,
whatever ``claude.hook_timeout_s`` says: a shorter setting shortens the
daemon's own limit (its refusal comes sooner), a longer one (up to 60 s)
applies only to a hook working alone, which reads it.
"""
EXIT_MARGIN_S = 0.5
"""What the client keeps of its hard limit, after waiting for the daemon, to print and exit."""


def daemon_arguments(argv: Sequence[str]) -> tuple[str, str] | None:
    """``(EVENT, ROOT)`` from ``EVENT [--root DIR]``; None for anything else.

    None sends the hook to the full parser (:func:`scheduler.claude.hooks.main`):
    ``--config`` and ``--agent-id`` (the daemon answers for its own agent only),
    an unknown event or option, a missing value.
    """
    words = list(argv)
    if not words or words[0] not in EVENTS:
        return None
    event, rest = words[0], words[1:]
    root = None
    if len(rest) == 2 and rest[0] == "--root":
        root = rest[1]
    elif len(rest) == 1 and rest[0].startswith("--root="):
        root = rest[0].removeprefix("--root=")
    elif rest:
        return None
    if root == "" or (root is not None and root.startswith("-")):
        return None  # argparse's to explain
    return event, root if root is not None else os.getcwd()


def main(argv: Sequence[str]) -> int:
    """``nous hook EVENT [--root DIR] [--config FILE] [--agent-id ID]``; always 0."""
    started = time.monotonic()
    arguments = daemon_arguments(argv)
    if arguments is None:
        from scheduler.claude.hooks import main as full

        return full(argv)
    event, root = arguments
    _arm_watchdog(event, FALLBACK_TIMEOUT_S)
    try:
        raw = sys.stdin.buffer.read()
        text = ask_daemon(root, event, raw, daemon_wait(started))
    except DaemonUnavailable:
        text = None
    except Exception as exc:  # seed 004: a hook never breaks the turn
        # AnswerLost too: the daemon took the hook and may have done part of it, so the
        # hook does not redo it (two Turns, two decisions).
        sys.stderr.write(f"nous hook {event}: {exc}; nothing added\n")
        return 0
    finally:
        _disarm_watchdog()
    if text is None:
        # No daemon took it: the hook works alone, within the hard limit counted from the start.
        from pathlib import Path

        from scheduler.claude.hooks import run_hook

        return run_hook(
            event, BytesIO(raw), sys.stdout, sys.stderr, root=Path(root), ask=False, started=started
        )
    if text:
        try:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        except OSError as exc:  # Claude Code went away mid-answer: still exit 0
            sys.stderr.write(f"nous hook {event}: answer not delivered: {exc}\n")
    return 0


def daemon_wait(started: float) -> float:
    """How long a hook begun at ``started`` (``time.monotonic()``) may wait for the daemon."""
    return FALLBACK_TIMEOUT_S - EXIT_MARGIN_S - (time.monotonic() - started)


def _arm_watchdog(event: str, limit_s: float) -> None:
    """End the process with exit 0 after ``limit_s``, saying so (a stdin or socket that hangs)."""

    def give_up(_signum: int, _frame: object) -> None:
        sys.stderr.write(f"nous hook {event}: gave up after {limit_s:g} s; nothing added\n")
        sys.stderr.flush()
        os._exit(0)  # the turn must go on

    signal.signal(signal.SIGALRM, give_up)
    signal.setitimer(signal.ITIMER_REAL, limit_s)


def _disarm_watchdog() -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
