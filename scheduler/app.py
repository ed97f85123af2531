"""The daemon's lifecycle: start the parts on one exit stack, run until asked to stop, unwind.

``run_daemon`` takes the root (the daemons' registry and the root's lock,
released last), has the parts built, readied and started by the
composition root (:mod:`scheduler.compose.daemon`, each part putting its
clean-up on the stack as it starts), installs the signal handlers, prints
the banner (:mod:`scheduler.banner`), rescans at start and waits for SIGINT
or SIGTERM. Leaving the stack then stops everything in the reverse order of
its start, whatever ended the run (a signal, an error, a cancellation): the
stop event is set, the decision in hand gets its grace, the writer finishes
the batch in hand and flushes the queue, the episode ends, the driver
closes, the root is released. It returns 0, or 1 when a part could not be
restarted.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Mapping
from contextlib import AsyncExitStack
from typing import TextIO

from graph.settings import Settings
from graph.watch.daemons import register_daemon
from graph.watch.root_lock import hold_root
from graph.watch.roots import check_root
from scheduler.banner import print_banner
from scheduler.compose.daemon import Nous, build, prepare, start_parts
from scheduler.supervisor import Supervisor

log = logging.getLogger(__name__)

# How long the start-up rescan waits for the watcher to arm before it runs anyway.
WATCH_ARM_WAIT_S = 5.0


async def run_daemon(
    settings: Settings,
    environ: Mapping[str, str],
    *,
    out: TextIO,
    stop: asyncio.Event | None = None,
) -> int:
    """Run the daemon until ``stop`` is set or SIGINT/SIGTERM arrives; return the exit code.

    Before the first tick, what an earlier run left behind is reconciled
    (:mod:`cognition.reconcile`). The watcher, the writer, the job loop and
    the hook socket run under a :class:`~scheduler.supervisor.Supervisor`; when one of them
    cannot be restarted the daemon stops and returns 1 with the reason.
    Raises :class:`~graph.errors.RootRefusedError` for ``/``, a system folder or a
    whole home, and :class:`~graph.errors.RootInUseError` when another daemon
    watches the root, a folder inside it or one that holds it.
    """
    stop = stop if stop is not None else asyncio.Event()
    root = check_root(settings.watch.root)  # before anything is written under it
    async with AsyncExitStack() as stack:
        # Both taken before the spool is opened: two daemons on one root would share it, and
        # two on nested roots would both act on one file. Released last.
        stack.enter_context(register_daemon(root))
        stack.enter_context(hold_root(root))
        nous = await build(stack, settings, environ)
        _stop_on_signals(stack, stop)
        ready = await prepare(stack, nous, out=out)
        print_banner(nous, ready.jobs, out=out, guide=ready.guide, llm=ready.llm_answers)
        print(f"  recovered {ready.recovered.describe()}", file=out)
        out.flush()
        supervisor = start_parts(stack, nous, ready, stop)
        await _until_stopped(nous, stop)
    return _report(nous, supervisor, out)


def _stop_on_signals(stack: AsyncExitStack, stop: asyncio.Event) -> None:
    """SIGINT and SIGTERM set ``stop``; the handlers' removal goes on ``stack``."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
        stack.callback(loop.remove_signal_handler, sig)


async def _until_stopped(nous: Nous, stop: asyncio.Event) -> None:
    """Rescan at start (when set), then wait for the stop event."""
    if nous.settings.schedule.rescan_at_start:
        # Not a condition: an unarmed watcher must not keep the rescan from running.
        await _wait_or_stop(nous.watcher.ready.wait(), stop, timeout_s=WATCH_ARM_WAIT_S)
        if not stop.is_set():
            await nous.index_sync.run()
    await stop.wait()


def _report(nous: Nous, supervisor: Supervisor, out: TextIO) -> int:
    """Say what the run did; the exit code is 1 when a part could not be restarted."""
    print(
        f"nous stopped: {nous.ingestor.stats.recorded} observations recorded,"
        f" {nous.runtime.loop.decided} decisions made",
        file=out,
    )
    out.flush()
    if supervisor.failure is not None:
        log.error("%s", supervisor.failure)
        print(f"nous: {supervisor.failure}", file=sys.stderr)
        return 1
    return 0


async def _wait_or_stop(
    awaitable: Awaitable[object], stop: asyncio.Event, *, timeout_s: float | None = None
) -> None:
    first = asyncio.ensure_future(awaitable)
    other = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({first, other}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
    finally:  # a cancelled run too: neither wait is left pending for ever
        for task in (first, other):
            task.cancel()
