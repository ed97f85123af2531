"""The hook's one watchdog: a ``SIGALRM`` timer that ends the process, exit 0, when time is up.

Claude Code waits for each hook, so a hook that hangs (a stdin that never
closes, a socket, an import, a DNS lookup, Neo4j) holds the turn. The
watchdog fires where asyncio's timeout cannot reach and says so on stderr;
exit 0 lets the turn go on (exit 2 would block a ``PreToolUse`` call).
Standard library only, and no ``threading``: it is armed before the hook
asks the daemon (see :mod:`scheduler.claude.hook_client`).
"""

from __future__ import annotations

import os
import signal
import sys
import time


class Watchdog:
    """Ends the process with exit 0 a set time after the hook started, saying so on stderr.

    Armed by the process's entry point, in its main thread (a signal handler
    can be set only there).
    """

    def __init__(self, event: str, started: float | None = None) -> None:
        """``started`` (``time.monotonic()``): when the hook's process began; now by default."""
        self.event = event
        self.started = time.monotonic() if started is None else started
        self.limit_s = 0.0

    def limit(self, limit_s: float) -> float:
        """Give up ``limit_s`` after the hook started (re-arms); the seconds left."""
        self.limit_s = limit_s
        left = max(0.001, limit_s - (time.monotonic() - self.started))
        signal.signal(signal.SIGALRM, self._fire)
        signal.setitimer(signal.ITIMER_REAL, left)
        return left

    def cancel(self) -> None:
        """Disarm (the hook answered)."""
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)

    def _fire(self, _signum: int, _frame: object) -> None:
        said = f"nous hook {self.event}: gave up after {self.limit_s:g} s; nothing added\n"
        sys.stderr.write(said)
        sys.stderr.flush()
        os._exit(0)  # the turn must go on; a stuck call cannot hold the process
