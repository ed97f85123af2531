"""The composition root: every part of Nous is built here from the settings and connected.

``run_daemon`` finds (or starts) a Neo4j, applies the schema, builds the
memory, the classifier, the ingestor and the watcher, registers the jobs with
APScheduler's ``AsyncIOScheduler`` and runs until SIGINT or SIGTERM. On a
signal it stops the watcher, lets the writer finish the batch in hand and
flush the queue, and returns 0.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from cognition.act.attribution import ActiveExecutions
from cognition.act.reconcile import Reconciler
from cognition.act.templates import TemplateRegistry
from cognition.sense.classify import ObservationClassifier
from cognition.sense.ingest import Ingestor
from graph.models import new_id
from graph.server.finder import Neo4jEndpoint, find_or_start
from graph.settings import Settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.migrate import apply_migrations
from graph.watch.files import PathFilter
from graph.watch.watcher import FileWatcher
from scheduler.compose import (
    ATTRIBUTION_SLACK_S,
    LoopRuntime,
    build_loop,
    load_action_templates,
)
from scheduler.guide.serve import GuideServer
from scheduler.jobs import IndexSync, StatusLine, register_jobs, watch_into
from scheduler.operations import operations_summary
from scheduler.recover import build_reconciler
from scheduler.rsi_job import RSIJob, register_rsi_job
from scheduler.self_improvement import register_prune_job
from scheduler.supervisor import Part, Supervisor, quiet_on_cancel, run_jobs
from scheduler.vector_job import register_vector_job

log = logging.getLogger(__name__)

SHUTDOWN_FLUSH_S = 30.0
# How long the start-up rescan waits for the watcher to arm before it runs anyway.
WATCH_ARM_WAIT_S = 5.0
# Tasks started and not awaited (a rescan after a watcher gap) are kept here until done.
_BACKGROUND: set[asyncio.Task[object]] = set()


@dataclass
class Nous:
    """Every long-lived part of a running daemon, built by :func:`build`."""

    settings: Settings
    root: Path
    endpoint: Neo4jEndpoint
    driver: GraphDriver
    memory: Memory
    ingestor: Ingestor
    watcher: FileWatcher
    index_sync: IndexSync
    runtime: LoopRuntime


async def build(settings: Settings, environ: Mapping[str, str]) -> Nous:
    """Find Neo4j, apply the schema and build the parts (nothing runs yet).

    The action templates are validated first, so a bad template file stops
    the daemon before anything else starts.
    """
    root = settings.watch.root.expanduser().resolve()
    templates = load_action_templates(settings)
    endpoint = await asyncio.to_thread(find_or_start, settings.neo4j, environ=environ)
    driver = GraphDriver(endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database)
    await driver.start()
    try:
        await apply_migrations(driver)
        return await _assemble(settings, root, templates, endpoint, driver, environ)
    except BaseException:
        await driver.close()
        raise


async def _assemble(
    settings: Settings,
    root: Path,
    templates: TemplateRegistry,
    endpoint: Neo4jEndpoint,
    driver: GraphDriver,
    environ: Mapping[str, str],
) -> Nous:
    memory = Memory(driver, settings.agent_id)
    attribution = ActiveExecutions(grace_s=settings.watch.debounce_ms / 1000 + ATTRIBUTION_SLACK_S)
    ingestor = Ingestor(
        memory,
        ObservationClassifier(settings.sense),
        batch_size=settings.sense.write_batch_size,
        queue_limit=settings.sense.queue_limit,
        attribute=attribution.attribute,
    )
    watcher = FileWatcher(root, settings.watch, settings.agent_id)
    index_sync = IndexSync(
        root,
        memory,
        ingestor,
        PathFilter(settings.watch.ignore_patterns),
        max_hash_bytes=settings.watch.max_hash_bytes,
    )
    runtime = await build_loop(
        settings,
        memory,
        root,
        index_sync,
        environ,
        session_id=new_id(),
        templates=templates,
        attribution=attribution,
    )
    return Nous(settings, root, endpoint, driver, memory, ingestor, watcher, index_sync, runtime)


async def run_daemon(
    settings: Settings,
    environ: Mapping[str, str],
    *,
    out: TextIO,
    stop: asyncio.Event | None = None,
) -> int:
    """Run the daemon until ``stop`` is set or SIGINT/SIGTERM arrives; return the exit code.

    Before the first tick, what an earlier run left behind is reconciled
    (:mod:`cognition.act.reconcile`). The watcher, the writer and the job loop
    run under a :class:`~scheduler.supervisor.Supervisor`; when one of them
    cannot be restarted the daemon stops and returns 1 with the reason.
    """
    stop = stop if stop is not None else asyncio.Event()
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
    jobs = register_jobs(
        scheduler,
        settings.schedule,
        nous.index_sync,
        status,
        decide=quiet_on_cancel(nous.runtime.loop.tick),
    )
    # Self-improvement shares the decision loop's one LLM client and strategy book.
    improvement = nous.runtime.rsi
    jobs += register_rsi_job(scheduler, settings.rsi, RSIJob(improvement.engine, settings.rsi))
    if settings.rsi.enabled:
        jobs.append(register_prune_job(scheduler, settings.rsi, improvement))
    jobs += register_vector_job(scheduler, settings.embeddings, nous.runtime.vectors)
    guide = serve_guide(settings)
    # Seed 001: the banner says whether the LLM endpoint answers, checked now.
    llm = None if settings.reasoner == "rules" else await nous.runtime.llm.healthy()
    print_banner(nous, jobs, out=out, guide=guide, llm=llm)
    print(f"  recovered {recovered.describe()}", file=out)
    out.flush()

    def died(part: str, why: str) -> None:
        status.part_error = f"{part}: {why}"

    supervisor = Supervisor(stop, on_death=died)
    nous.watcher.on_gap(lambda: _rescan_soon(nous.index_sync))
    supervisor.start(
        [
            Part("writer", lambda: nous.ingestor.run(stop)),
            Part("watcher", lambda: watch_into(nous.watcher, nous.ingestor, stop, status)),
            Part("jobs", lambda: run_jobs(scheduler, stop, died)),
        ]
    )
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


def print_banner(
    nous: Nous,
    jobs: list[str],
    *,
    out: TextIO,
    guide: GuideServer | None = None,
    llm: bool | None = None,
) -> None:
    """Where the memory is, how to look at it, what is watched and what runs."""
    browser = nous.endpoint.browser_url or "not served by this Neo4j (use any Neo4j Browser)"
    lines = [
        f"nous: agent '{nous.settings.agent_id}'",
        f"  memory   {nous.endpoint.describe()}",
        f"  browser  {browser}",
        f"  guide    {f':play {guide.url}' if guide else 'not served'}; `nous why PATH` explains",
        f"  llm      {_llm_found(nous.settings, llm)}",
        f"  watching {nous.root} ({len(nous.settings.watch.ignore_patterns)} ignore patterns)",
        f"  thinking {_reasoning(nous.settings)}",
        *(
            [f"  llm      {nous.runtime.llm.state.describe()}"]
            if nous.settings.reasoner != "rules"
            else []
        ),
        f"  actions  {len(nous.runtime.templates)} templates; {_acting(nous.settings)}",
        f"  strategy {_strategies(nous)}",
        f"  jobs     {', '.join(jobs)}",
        "  stop     Ctrl-C (Neo4j keeps running; `python -m graph.neo4j stop` stops it)",
    ]
    print("\n".join(lines), file=out)
    out.flush()


def _strategies(nous: Nous) -> str:
    carried = nous.runtime.rsi.strategies.current
    where = nous.root / ".nous" / "strategies.md"
    return f"{len(carried.strategy_ids)} learned strategies carried in every prompt ({where})"


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


def _reasoning(settings: Settings) -> str:
    if settings.reasoner == "rules":
        return "rules reasoner (no LLM)"
    mode = "LLM only" if settings.reasoner == "llm" else "LLM when it answers, else rules"
    return (
        f"{mode} ({settings.llm.deliberation}): {settings.llm.base_url} model {settings.llm.model}"
    )


def _llm_found(settings: Settings, answered: bool | None) -> str:
    if answered is None:
        return "not used (rules reasoner)"
    answer = "answers" if answered else "does not answer (the rules reasoner stands in)"
    return f"{settings.llm.base_url} model {settings.llm.model}: {answer}"


def _acting(settings: Settings) -> str:
    budget = settings.budget
    how = "dry run (nothing executed)" if settings.executors.dry_run else "executors live"
    return f"{how}; at most {budget.actions_per_hour}/hour, {budget.max_concurrent} at once"


async def _wait_or_stop(
    awaitable: Awaitable[object], stop: asyncio.Event, *, timeout_s: float | None = None
) -> None:
    first = asyncio.ensure_future(awaitable)
    other = asyncio.ensure_future(stop.wait())
    await asyncio.wait({first, other}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
    for task in (first, other):
        task.cancel()
