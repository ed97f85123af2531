"""The daemon's lifecycle: start the parts, run until asked to stop, stop them in order.

``run_daemon`` has the parts built (:mod:`scheduler.compose`), reconciles
what an earlier run left behind, registers the jobs (:mod:`scheduler.jobs`),
prints the banner (:mod:`scheduler.banner`) and runs the writer, the
watcher, the jobs and the Claude Code hook socket
(:mod:`scheduler.claude.hook_server`) under a supervisor, with a rescan at
start, until SIGINT or SIGTERM. On a signal
it stops the watcher, lets the writer finish the batch in hand and flush the
queue, and returns 0.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Mapping
from typing import TextIO

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from cognition.reconcile import Reconciler
from graph.settings import Settings
from graph.watch.daemons import register_daemon
from graph.watch.root_lock import hold_root
from graph.watch.roots import check_root
from scheduler.banner import print_banner
from scheduler.claude.hook_server import HookServer
from scheduler.claude.wiring import build_session
from scheduler.compose import Nous, build, build_reconciler
from scheduler.guide.serve import GuideServer
from scheduler.index_sync import IndexSync
from scheduler.jobs import (
    DECISION_LOOP,
    OneAtATime,
    RSIJob,
    StatusLine,
    register_jobs,
    register_prune_job,
    register_rsi_job,
    register_vector_job,
    watch_into,
)
from scheduler.operations import operations_summary
from scheduler.supervisor import Part, Supervisor, quiet_on_cancel, run_jobs

log = logging.getLogger(__name__)

SHUTDOWN_FLUSH_S = 30.0
# How long the start-up rescan waits for the watcher to arm before it runs anyway.
WATCH_ARM_WAIT_S = 5.0
# Tasks started and not awaited (a rescan after a watcher gap) are kept here until done.
_BACKGROUND: set[asyncio.Task[object]] = set()


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
    # Both taken before the spool is opened: two daemons on one root would share it, and
    # two on nested roots would both act on one file.
    with register_daemon(root), hold_root(root):
        return await _run(settings, environ, out, stop)


async def _run(
    settings: Settings, environ: Mapping[str, str], out: TextIO, stop: asyncio.Event
) -> int:
    nous = await build(settings, environ)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    status = StatusLine(
        nous.ingestor,
        nous.index_sync,
        out=out,
        decisions=lambda: nous.runtime.loop.decided,
        operations=lambda: operations_summary(nous.memory, nous.runtime.budget),
        llm=nous.runtime.llm.state.describe if settings.reasoner != "rules" else None,
    )
    if settings.reasoner != "rules":
        await nous.runtime.llm.probe()  # the banner says what the endpoint accepts
    reconciler = build_reconciler(settings, nous.memory, nous.runtime)
    recovered = await reconciler.reconcile()
    scheduler = AsyncIOScheduler()
    jobs = _register_jobs(scheduler, settings, nous, status)
    guide = serve_guide(settings)
    # Seed 001: the banner says whether the LLM endpoint answers, checked now.
    llm = None if settings.reasoner == "rules" else await nous.runtime.llm.healthy()
    print_banner(nous, jobs, out=out, guide=guide, llm=llm)
    print(f"  recovered {recovered.describe()}", file=out)
    out.flush()
    supervisor = _start_parts(settings, nous, stop, status, scheduler)
    reconciler.start_retries(recovered)
    try:
        if settings.schedule.rescan_at_start:
            # Not a condition: an unarmed watcher must not keep the rescan from running.
            await _wait_or_stop(nous.watcher.ready.wait(), stop, timeout_s=WATCH_ARM_WAIT_S)
            if not stop.is_set():
                await nous.index_sync.run()
        await stop.wait()
    finally:
        if guide is not None:
            guide.close()
        await _finish(supervisor, reconciler, scheduler, nous)
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    return _report(nous, supervisor, out)


def _register_jobs(
    scheduler: AsyncIOScheduler, settings: Settings, nous: Nous, status: StatusLine
) -> list[str]:
    """Schedule the loop, the index sync, the status line, RSI, pruning and the vectors."""
    decide = OneAtATime(DECISION_LOOP, quiet_on_cancel(nous.runtime.loop.tick))
    status.lag = decide.lag
    jobs = register_jobs(scheduler, settings.schedule, nous.index_sync, status, decide=decide)
    # Self-improvement shares the decision loop's one LLM client and strategy book.
    improvement = nous.runtime.rsi
    jobs += register_rsi_job(scheduler, settings.rsi, RSIJob(improvement.engine, settings.rsi))
    if settings.rsi.enabled:
        jobs.append(register_prune_job(scheduler, settings.rsi, improvement.pruner))
    jobs += register_vector_job(scheduler, settings.embeddings, nous.runtime.vectors)
    return jobs


def _start_parts(
    settings: Settings,
    nous: Nous,
    stop: asyncio.Event,
    status: StatusLine,
    scheduler: AsyncIOScheduler,
) -> Supervisor:
    """Start the writer, watcher, jobs and hook socket under a supervisor that restarts them."""

    def died(part: str, why: str) -> None:
        status.part_error = f"{part}: {why}"

    supervisor = Supervisor(stop, on_death=died)
    # Claude Code's hooks in this project are answered here, without a process's start-up.
    hooks = HookServer(
        build_session(nous.memory, settings, nous.root), nous.root, settings.claude.hook_timeout_s
    )
    nous.watcher.on_gap(lambda: _rescan_soon(nous.index_sync))
    nous.ingestor.on_spool_relief(lambda: _rescan_soon(nous.index_sync))
    supervisor.start(
        [
            Part("writer", lambda: nous.ingestor.run(stop)),
            Part("watcher", lambda: watch_into(nous.watcher, nous.ingestor, stop, status)),
            Part("jobs", lambda: run_jobs(scheduler, stop, died)),
            Part("hooks", lambda: hooks.serve(stop)),
        ]
    )
    return supervisor


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


def serve_guide(settings: Settings) -> GuideServer | None:
    """Serve the Browser guide on 127.0.0.1 (None when not configured or the port is taken)."""
    if settings.neo4j.guide_port is None:
        return None
    try:
        return GuideServer(settings.agent_id, settings.neo4j.guide_port).start()
    except OSError as exc:
        log.warning("Browser guide not served on port %d: %s", settings.neo4j.guide_port, exc)
        return None


async def _finish(
    supervisor: Supervisor, reconciler: Reconciler, scheduler: AsyncIOScheduler, nous: Nous
) -> None:
    # The decision in hand finishes (or is cancelled, killing its child); so
    # does a retry started by reconciliation; then the jobs stop. The watcher
    # ends on the stop event; the writer then writes the batch in hand and
    # flushes the queue. All are bounded so a dead Neo4j cannot keep the
    # process from exiting.
    grace = nous.settings.schedule.shutdown_grace_s
    await nous.runtime.loop.stop(grace)
    await reconciler.stop(grace)
    if scheduler.running:
        scheduler.shutdown(wait=False)
    await supervisor.wait(SHUTDOWN_FLUSH_S)
    try:
        await nous.runtime.close()
    finally:
        await nous.driver.close()


def _rescan_soon(index_sync: IndexSync) -> None:
    # The watcher was re-armed and may have missed changes: the rescan finds them.
    task = asyncio.get_running_loop().create_task(index_sync.run(), name="nous-gap-rescan")
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


async def _wait_or_stop(
    awaitable: Awaitable[object], stop: asyncio.Event, *, timeout_s: float | None = None
) -> None:
    first = asyncio.ensure_future(awaitable)
    other = asyncio.ensure_future(stop.wait())
    await asyncio.wait({first, other}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
    for task in (first, other):
        task.cancel()
