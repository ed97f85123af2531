"""``nous hook EVENT``: one short process per Claude Code hook, which never breaks the turn.

It reads the hook's JSON from stdin, connects to the agent's Neo4j, lets
:class:`scheduler.claude.session.ClaudeSession` do the event's work and
prints the answer Claude Code reads. Seed 004's rule holds for every hook:
whatever goes wrong (a bad payload, bad settings, Neo4j down, a timeout) the
process exits 0 having printed nothing, and says why on stderr. A watchdog
ends it at ``claude.hook_timeout_s`` even when it is stuck where asyncio's
timeout cannot reach (an import, a DNS lookup).

The modules that need Neo4j are imported inside :func:`run_hook`, after the
payload is read: a hook is a process per event, so its start-up cost counts.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

from scheduler.claude.payload import HookAnswer, HookInput, PayloadError, parse_payload

if TYPE_CHECKING:
    from graph.settings import Settings

log = logging.getLogger("nous.hook")
FALLBACK_TIMEOUT_S = 8.0
"""The watchdog's limit until the settings are read (they may be what hangs)."""


class _Watchdog:
    """Ends the process with exit 0 after ``limit_s``, saying so on stderr."""

    def __init__(self, event: str, limit_s: float, err: TextIO) -> None:
        self.event = event
        self.err = err
        self._timer: threading.Timer | None = None
        self.reset(limit_s)

    def reset(self, limit_s: float) -> None:
        self.cancel()
        self._timer = threading.Timer(limit_s, self._fire, args=(limit_s,))
        self._timer.daemon = True
        self._timer.start()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def _fire(self, limit_s: float) -> None:
        self.err.write(f"nous hook {self.event}: gave up after {limit_s:g} s; nothing added\n")
        self.err.flush()
        os._exit(0)  # the turn must go on; a stuck thread cannot hold the process


def run_hook(
    event: str,
    stdin: BinaryIO,
    stdout: TextIO,
    stderr: TextIO,
    *,
    load: Callable[[], Settings],
    root: Path,
) -> int:
    """Answer one hook; always returns 0 (Claude Code's turn is never broken by Nous)."""
    watchdog = _Watchdog(event, FALLBACK_TIMEOUT_S, stderr)
    try:
        payload = parse_payload(stdin.read(), event)
        settings = load()
        limit = settings.claude.hook_timeout_s
        watchdog.reset(limit)
        logging.basicConfig(stream=stderr, level=logging.WARNING, format="nous hook: %(message)s")
        # Leave a margin inside the watchdog to print the answer and close the driver.
        answer = asyncio.run(_answer(event, payload, settings, root, limit * 0.8))
        text = answer.render(event)
        if text:
            stdout.write(text + "\n")
            stdout.flush()
    except PayloadError as exc:
        stderr.write(f"nous hook: {exc}; nothing added\n")
    except TimeoutError:
        stderr.write(f"nous hook {event}: timed out; nothing added\n")
    except Exception as exc:  # seed 004: a hook never breaks the turn
        stderr.write(f"nous hook {event}: {type(exc).__name__}: {exc}; nothing added\n")
    finally:
        watchdog.cancel()
    return 0


async def _answer(
    event: str, payload: HookInput, settings: Settings, root: Path, limit_s: float
) -> HookAnswer:
    # Imported here: everything that needs Neo4j, loaded after the payload proved readable.
    from scheduler.claude.wiring import open_session

    async with asyncio.timeout(limit_s), open_session(settings, root) as session:
        return await session.answer(event, payload)


def main(event: str, *, load: Callable[[], Settings], root: Path | None) -> int:
    """The handler of ``nous hook EVENT``: stdin, stdout and stderr of this process."""
    return run_hook(
        event,
        sys.stdin.buffer,
        sys.stdout,
        sys.stderr,
        load=load,
        root=root if root is not None else Path.cwd(),
    )
