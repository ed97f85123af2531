"""``nous hook EVENT``: one short process per Claude Code hook, which never breaks the turn.

It reads the hook's JSON from stdin and prints the answer Claude Code
reads. When a daemon runs on the project, the daemon answers
(:mod:`scheduler.claude.hook_socket`), asked by the lean
:mod:`scheduler.claude.hook_client`, which imports this module only when it
must: to parse what it cannot, or when no daemon answered. Then the hook
loads the settings, connects to the agent's Neo4j and lets
:class:`scheduler.claude.session.ClaudeSession` do the event's work itself.
Seed 004's rule holds for every hook: whatever goes wrong (a bad payload,
bad settings, Neo4j down, a timeout) the process exits 0 having printed
nothing, and says why on stderr. A watchdog ends it at
``claude.hook_timeout_s`` even where asyncio's timeout cannot reach (an
import, a DNS lookup).

``nous hook`` is dispatched to :mod:`scheduler.claude.hook_client` before
the ``nous`` parser is built (:func:`scheduler.cli.main`).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

from scheduler.claude.events import EVENTS
from scheduler.claude.hook_client import FALLBACK_TIMEOUT_S, daemon_wait
from scheduler.claude.hook_socket import DaemonUnavailable, ask_daemon

if TYPE_CHECKING:
    from graph.settings import Settings
    from scheduler.claude.payload import HookAnswer, HookInput


def add_hook_arguments(parser: argparse.ArgumentParser) -> None:
    """``EVENT`` and ``--root``: the arguments only ``nous hook`` takes."""
    parser.add_argument("event", choices=EVENTS)
    parser.add_argument(
        "--root", type=Path, help="the project Claude Code works in (default: the current folder)"
    )


def hook_parser() -> argparse.ArgumentParser:
    """``nous hook``'s own parser (the same options ``nous --help`` shows for it)."""
    parser = argparse.ArgumentParser(prog="nous hook")
    add_hook_arguments(parser)
    # The common options, declared here too so the hook needs none of the CLI's modules.
    parser.add_argument("--config", type=Path, metavar="FILE")
    parser.add_argument("--agent-id")
    return parser


class _Watchdog:
    """Ends the process with exit 0 when the hook's time is up, saying so on stderr."""

    def __init__(
        self, event: str, limit_s: float, err: TextIO, started: float | None = None
    ) -> None:
        self.event = event
        self.err = err
        self.started = time.monotonic() if started is None else started
        self._timer: threading.Timer | None = None
        self.limit(limit_s)

    def limit(self, limit_s: float) -> float:
        """Give up ``limit_s`` after the hook started; the seconds left."""
        self.cancel()
        left = max(0.0, limit_s - (time.monotonic() - self.started))
        self._timer = threading.Timer(left, self._fire, args=(limit_s,))
        self._timer.daemon = True
        self._timer.start()
        return left

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def _fire(self, limit_s: float) -> None:
        self.err.write(f"nous hook {self.event}: gave up after {limit_s:g} s; nothing added\n")
        self.err.flush()
        os._exit(0)  # the turn must go on; a stuck thread cannot hold the process


def main(argv: Sequence[str]) -> int:
    """``nous hook EVENT [--root DIR] [--config FILE] [--agent-id ID]``; always 0."""
    try:
        args = hook_parser().parse_args(argv)
    except SystemExit:
        # argparse said why on stderr; exit 2 would block a PreToolUse call, so 0.
        return 0
    root = args.root if args.root is not None else Path.cwd()
    # Asked for another settings file or agent, the hook works alone: the daemon answers
    # for its own agent only.
    alone = args.config is not None or args.agent_id is not None
    return run_hook(
        args.event,
        sys.stdin.buffer,
        sys.stdout,
        sys.stderr,
        root=root,
        ask=not alone,
        config=args.config,
        agent_id=args.agent_id,
    )


def run_hook(
    event: str,
    stdin: BinaryIO,
    stdout: TextIO,
    stderr: TextIO,
    *,
    root: Path,
    ask: bool = True,
    config: Path | None = None,
    agent_id: str | None = None,
    settings: Settings | None = None,
    started: float | None = None,
) -> int:
    """Answer one hook, through the daemon or alone; always returns 0.

    It works alone only when no daemon took the hook; one the daemon took
    and did not answer is not redone (it adds nothing, and says so).

    ``started`` (``time.monotonic()``) is when the hook's process began, when
    it began before this call: the hard limit counts from there.
    """
    watchdog = _Watchdog(event, FALLBACK_TIMEOUT_S, stderr, started)
    alone = False
    try:
        raw = stdin.read()
        text = None
        if ask:
            try:
                text = ask_daemon(root, event, raw, daemon_wait(watchdog.started))
            except DaemonUnavailable:  # AnswerLost is not: what the daemon took is not redone
                text = None
        if text is None:
            text = _alone(event, raw, root, watchdog, settings, config, agent_id)
            alone = True
        if text:
            stdout.write(text + "\n")
            stdout.flush()
    except Exception as exc:  # seed 004: a hook never breaks the turn
        stderr.write(f"nous hook {event}: {exc}; nothing added\n")
    finally:
        watchdog.cancel()
    if alone:  # the answer is out: the vectors of what the hook wrote, in a detached child
        from scheduler.claude.hook_vectors import hand_off_vectors

        hand_off_vectors(event, stdout, root=root, started=watchdog.started, settings=settings,
                         config=config, agent_id=agent_id)  # fmt: skip
    return 0


def _alone(
    event: str,
    raw: bytes,
    root: Path,
    watchdog: _Watchdog,
    settings: Settings | None,
    config: Path | None,
    agent_id: str | None,
) -> str:
    import asyncio
    import logging

    from graph.settings import load_settings
    from scheduler.claude.payload import parse_payload

    payload = parse_payload(raw, event)
    if settings is None:
        overrides = {"agent_id": agent_id} if agent_id else {}
        settings = load_settings(config, overrides=overrides)
    left = watchdog.limit(settings.claude.hook_timeout_s)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="nous hook: %(message)s")
    # A margin inside the watchdog to print the answer and close the driver.
    try:
        answer = asyncio.run(_answer(event, payload, settings, root, left * 0.8))
    except TimeoutError:
        raise TimeoutError("timed out") from None
    return answer.render(event)


async def _answer(
    event: str, payload: HookInput, settings: Settings, root: Path, limit_s: float
) -> HookAnswer:
    import asyncio

    # Imported here: everything that needs Neo4j, loaded once the payload proved readable.
    from scheduler.claude.wiring import open_session

    async with asyncio.timeout(limit_s), open_session(settings, root) as session:
        return await session.answer(event, payload)
