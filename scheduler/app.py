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
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from cognition.act.attribution import ActiveExecutions
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
from scheduler.jobs import IndexSync, StatusLine, register_jobs, watch_into
from scheduler.self_improvement import register_prune_job

log = logging.getLogger(__name__)

SHUTDOWN_FLUSH_S = 30.0


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
    """Run the daemon until ``stop`` is set or SIGINT/SIGTERM arrives; return the exit code."""
    stop = stop if stop is not None else asyncio.Event()
    nous = await build(settings, environ)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    status = StatusLine(
        nous.ingestor, nous.index_sync, out=out, decisions=lambda: nous.runtime.loop.decided
    )
    scheduler = AsyncIOScheduler()
    jobs = register_jobs(
        scheduler, settings.schedule, nous.index_sync, status, decide=nous.runtime.loop.tick
    )
    jobs.append(register_prune_job(scheduler, settings.rsi, nous.runtime.rsi))
    print_banner(nous, jobs, out=out)

    writer = asyncio.create_task(nous.ingestor.run(stop), name="nous-writer")
    watching = asyncio.create_task(
        watch_into(nous.watcher, nous.ingestor, stop, status), name="nous-watcher"
    )
    scheduler.start()
    try:
        if settings.schedule.rescan_at_start:
            await _wait_or_stop(nous.watcher.ready.wait(), stop)
            if not stop.is_set():
                await nous.index_sync.run()
        await stop.wait()
    finally:
        scheduler.shutdown(wait=False)
        await _finish(watching, writer, nous)
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    print(
        f"nous stopped: {nous.ingestor.stats.recorded} observations recorded,"
        f" {nous.runtime.loop.decided} decisions made",
        file=out,
    )
    out.flush()
    return 0


def print_banner(nous: Nous, jobs: list[str], *, out: TextIO) -> None:
    """Where the memory is, how to look at it, what is watched and what runs."""
    browser = nous.endpoint.browser_url or "not served by this Neo4j (use any Neo4j Browser)"
    lines = [
        f"nous: agent '{nous.settings.agent_id}'",
        f"  memory   {nous.endpoint.describe()}",
        f"  browser  {browser}",
        f"  watching {nous.root} ({len(nous.settings.watch.ignore_patterns)} ignore patterns)",
        f"  thinking {_reasoning(nous.settings)}",
        f"  actions  {len(nous.runtime.templates)} templates; {_acting(nous.settings)}",
        f"  jobs     {', '.join(jobs)}",
        "  stop     Ctrl-C (Neo4j keeps running; `python -m graph.neo4j stop` stops it)",
    ]
    print("\n".join(lines), file=out)
    out.flush()


async def _finish(watching: asyncio.Task[None], writer: asyncio.Task[None], nous: Nous) -> None:
    # The decision in hand finishes (or is cancelled, killing its child);
    # the watcher ends on the stop event; the writer then writes the batch in
    # hand and flushes the queue. All are bounded so a dead Neo4j cannot keep
    # the process from exiting.
    await nous.runtime.loop.stop(nous.settings.schedule.shutdown_grace_s)
    for task in (watching, writer):
        try:
            await asyncio.wait_for(task, SHUTDOWN_FLUSH_S)
        except TimeoutError:
            log.error("%s did not finish within %.0f s", task.get_name(), SHUTDOWN_FLUSH_S)
        except Exception:
            log.exception("%s failed while stopping", task.get_name())
    try:
        await nous.runtime.close()
    finally:
        await nous.driver.close()


def _reasoning(settings: Settings) -> str:
    if settings.reasoner == "rules":
        return "rules reasoner (no LLM)"
    mode = "LLM only" if settings.reasoner == "llm" else "LLM when it answers, else rules"
    return f"{mode}: {settings.llm.base_url} model {settings.llm.model}"


def _acting(settings: Settings) -> str:
    budget = settings.budget
    how = "dry run (nothing executed)" if settings.executors.dry_run else "executors live"
    return f"{how}; at most {budget.actions_per_hour}/hour, {budget.max_concurrent} at once"


async def _wait_or_stop(awaitable: Awaitable[object], stop: asyncio.Event) -> None:
    first = asyncio.ensure_future(awaitable)
    other = asyncio.ensure_future(stop.wait())
    await asyncio.wait({first, other}, return_when=asyncio.FIRST_COMPLETED)
    for task in (first, other):
        task.cancel()
