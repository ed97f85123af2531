"""``nous run``'s parts, built and started in order, each putting its clean-up on one exit stack.

As in apscheduler's ``__aenter__``, a part registers how it stops as it
starts, so stopping the daemon is the stack unwinding: the last part
started is the first stopped, and no hand-written list of closes can fall
out of step with the starts. :mod:`scheduler.app` holds the stack and runs
the lifecycle; here the parts are built (:func:`build`), readied
(:func:`prepare`: the status line, the LLM probed, what an earlier run left
reconciled, the jobs scheduled, the hook server and the guide) and set
running (:func:`start_parts`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from cognition.act.attribution import ActiveExecutions
from cognition.act.trust import TemplatesTrust
from cognition.decisions.keep import DecisionKeeper
from cognition.reconcile import Reconciliation
from cognition.sense.classify import ObservationClassifier
from cognition.sense.history import HistoryReader
from cognition.sense.ingest import Ingestor
from cognition.sense.spool import open_intake_spool
from graph.models import new_id
from graph.server.finder import Neo4jEndpoint
from graph.settings import Settings
from graph.settings_lean import git_environment
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from graph.watch.gitignore import GitIgnore
from graph.watch.project import project_of
from graph.watch.watcher import FileWatcher
from scheduler.claude.hook_server import HookServer
from scheduler.compose.connect import open_graph
from scheduler.compose.loop import LoopRuntime, build_loop
from scheduler.compose.session import build_session
from scheduler.compose.trust import escalate_untrusted, held_settings, load_trusted_templates
from scheduler.guide.serve import GuideServer
from scheduler.index_sync import IndexSync
from scheduler.jobs import (
    DECISION_LOOP,
    HISTORY_BUDGET_S,
    OneAtATime,
    RSIJob,
    StatusLine,
    register_history_job,
    register_jobs,
    register_prune_job,
    register_rsi_job,
    register_vector_job,
    watch_into,
)
from scheduler.operations import operations_summary
from scheduler.supervisor import Part, Supervisor, quiet_on_cancel, run_jobs

log = logging.getLogger(__name__)

# Changes reach the graph one debounce after they happen; attribute late ones too.
ATTRIBUTION_SLACK_S = 1.5
# How long the writer, the watcher, the jobs and the hook socket get to end once stopped.
SHUTDOWN_FLUSH_S = 30.0
# Tasks started and not awaited (a rescan after a watcher gap) are kept here until done.
_BACKGROUND: set[asyncio.Task[object]] = set()


@dataclass
class Nous:
    """Every long-lived part of a running daemon, built by :func:`build`."""

    settings: Settings
    root: Path
    endpoint: Neo4jEndpoint
    memory: Memory
    ingestor: Ingestor
    watcher: FileWatcher
    index_sync: IndexSync
    runtime: LoopRuntime
    trust: TemplatesTrust | None = None  # None: built without the check (tests)


@dataclass
class Prepared:
    """What :func:`prepare` readied, and what the banner says of it."""

    status: StatusLine
    scheduler: AsyncIOScheduler
    jobs: list[str]
    hooks: HookServer
    guide: GuideServer | None
    recovered: Reconciliation
    llm_answers: bool | None  # None: the rules reasoner, no LLM used


async def build(stack: AsyncExitStack, settings: Settings, environ: Mapping[str, str]) -> Nous:
    """Find Neo4j, apply the schema and build the daemon's parts (nothing runs yet).

    The action templates are validated first, so a bad template file stops
    the daemon before anything else starts. On ``stack``: the driver's
    close, the LLM client's, the episode's end (unwound in reverse).
    """
    root = settings.watch.root.expanduser().resolve()
    # Where the executors are chosen: an untrusted templates file runs nothing this run.
    templates, trust = load_trusted_templates(settings, root)
    held = held_settings(settings, trust, root)
    endpoint, driver = await open_graph(stack, settings, environ)
    memory = Memory(driver, settings.agent_id)
    attribution = ActiveExecutions(grace_s=settings.watch.debounce_ms / 1000 + ATTRIBUTION_SLACK_S)
    ingestor, watcher, index_sync = build_intake(settings, root, memory, attribution)
    runtime = await build_loop(
        stack,
        held,
        memory,
        root,
        index_sync,
        environ,
        session_id=new_id(),
        templates=templates,
        attribution=attribution,
    )
    if held is not settings:
        await escalate_untrusted(memory, trust, root)
    return Nous(held, root, endpoint, memory, ingestor, watcher, index_sync, runtime, trust)


def build_intake(
    settings: Settings, root: Path, memory: Memory, attribution: ActiveExecutions
) -> tuple[Ingestor, FileWatcher, IndexSync]:
    """What feeds the memory: the writer (with its spool), the watcher and the rescan."""
    ingestor = Ingestor(
        memory,
        ObservationClassifier(settings.sense),
        batch_size=settings.sense.write_batch_size,
        queue_limit=settings.sense.queue_limit,
        attribute=attribution.attribute,
        spool=open_intake_spool(root, settings.intake, settings.agent_id),
        in_memory=settings.intake.in_memory,
    )
    # One filter for the watcher and the index sync, so both leave out the same files.
    gitignore = GitIgnore.read(root) if settings.watch.gitignore else None
    if gitignore is not None:
        log.info("leaving out what %s/.gitignore leaves out (%d patterns)", root, len(gitignore))
    path_filter = PathFilter(settings.watch.ignore_patterns, gitignore)
    watcher = FileWatcher(root, settings.watch, settings.agent_id, path_filter)
    index_sync = IndexSync(
        root,
        memory,
        ingestor,
        path_filter,
        max_hash_bytes=settings.watch.max_hash_bytes,
        recent=watcher.recent,
        baseline=settings.watch.baseline,
    )
    return ingestor, watcher, index_sync


async def prepare(stack: AsyncExitStack, nous: Nous, *, out: TextIO) -> Prepared:
    """Ready the daemon before its first tick: the status line, the LLM probed, what an earlier
    run left reconciled, the jobs scheduled, the hook server built, the guide served.

    Reconciliation comes before any job can run. The guide's close goes on ``stack``.
    """
    settings, runtime = nous.settings, nous.runtime
    uses_llm = settings.reasoner != "rules"
    status = StatusLine(
        nous.ingestor,
        nous.index_sync,
        out=out,
        decisions=lambda: runtime.loop.decided,
        operations=lambda: operations_summary(nous.memory, runtime.budget),
        llm=runtime.llm.state.describe if uses_llm else None,
    )
    if uses_llm:
        await runtime.llm.probe()  # the banner says what the endpoint accepts
    recovered = await runtime.reconciler.reconcile()
    scheduler = AsyncIOScheduler()
    jobs = schedule_jobs(scheduler, nous, status)
    # Claude Code's hooks in this project are answered here, without a process's start-up.
    session = build_session(nous.memory, settings, nous.root)
    hooks = HookServer(session, nous.root, settings.claude.hook_timeout_s)
    guide = serve_guide(settings)
    if guide is not None:
        stack.callback(guide.close)
    # Seed 001: the banner says whether the LLM endpoint answers, checked now.
    answers = await runtime.llm.healthy() if uses_llm else None
    return Prepared(status, scheduler, jobs, hooks, guide, recovered, answers)


def schedule_jobs(scheduler: AsyncIOScheduler, nous: Nous, status: StatusLine) -> list[str]:
    """Register every job of the daemon on ``scheduler``; describe each for the banner."""
    settings, runtime = nous.settings, nous.runtime
    decide = OneAtATime(DECISION_LOOP, quiet_on_cancel(runtime.loop.tick))
    status.lag = decide.lag
    jobs = register_jobs(scheduler, settings.schedule, nous.index_sync, status, decide=decide)
    # Self-improvement shares the decision loop's one LLM client and strategy book.
    improvement = runtime.rsi
    jobs += register_rsi_job(scheduler, settings.rsi, RSIJob(improvement.engine, settings.rsi))
    if settings.rsi.enabled:
        jobs.append(register_prune_job(scheduler, settings.rsi, improvement.pruner))
    jobs += register_vector_job(scheduler, settings.embeddings, runtime.vectors)
    decisions = nous.memory.team_decisions(project_of(nous.root, settings.project))
    history = HistoryReader(
        nous.root,
        git_environment(),
        settings.history,
        HISTORY_BUDGET_S,
        then=DecisionKeeper(decisions).from_commits,
    )
    jobs += register_history_job(scheduler, settings.history, nous.memory.commits, history)
    return jobs


def start_parts(
    stack: AsyncExitStack, nous: Nous, ready: Prepared, stop: asyncio.Event
) -> Supervisor:
    """Run the writer, the watcher, the jobs and the hook socket, and the reconciler's retries.

    Each registers its stop on ``stack`` as it starts, so the stack unwinds
    them in this order, whatever ended the run: ``stop`` is set; a rescan
    after a watcher gap is cancelled; the decision in hand gets
    ``schedule.shutdown_grace_s`` (or is cancelled, killing its child); so
    does a retry started by reconciliation; the scheduler shuts down; the
    supervised parts end (the watcher on ``stop``, the writer after the
    batch in hand and the queue), within :data:`SHUTDOWN_FLUSH_S`. All are
    bounded, so a dead Neo4j cannot keep the process from exiting.
    """
    runtime, status, scheduler = nous.runtime, ready.status, ready.scheduler
    grace = nous.settings.schedule.shutdown_grace_s

    def died(part: str, why: str) -> None:
        status.part_error = f"{part}: {why}"

    supervisor = Supervisor(stop, on_death=died)
    nous.watcher.on_gap(lambda: _rescan_soon(nous.index_sync))
    nous.ingestor.on_spool_relief(lambda: _rescan_soon(nous.index_sync))
    supervisor.start(
        [
            Part("writer", lambda: nous.ingestor.run(stop)),
            Part("watcher", lambda: watch_into(nous.watcher, nous.ingestor, stop, status)),
            Part("jobs", lambda: run_jobs(scheduler, stop, died)),
            Part("hooks", lambda: ready.hooks.serve(stop)),
        ]
    )
    stack.push_async_callback(supervisor.wait, SHUTDOWN_FLUSH_S)
    # Set again below, first of all on the way out; this one covers a failure in between.
    stack.callback(stop.set)
    stack.callback(_shut_down, scheduler)
    runtime.reconciler.start_retries(ready.recovered)
    stack.push_async_callback(runtime.reconciler.stop, grace)
    # The loop acts from the first tick of the jobs above: its stop comes before theirs.
    stack.push_async_callback(runtime.loop.stop, grace)
    stack.push_async_callback(_cancel_rescans)
    stack.callback(stop.set)
    return supervisor


def serve_guide(settings: Settings) -> GuideServer | None:
    """Serve the Browser guide on 127.0.0.1 (None when not configured or the port is taken)."""
    if settings.neo4j.guide_port is None:
        return None
    try:
        return GuideServer(settings.agent_id, settings.neo4j.guide_port).start()
    except OSError as exc:
        log.warning("Browser guide not served on port %d: %s", settings.neo4j.guide_port, exc)
        return None


def _shut_down(scheduler: AsyncIOScheduler) -> None:
    # Not waiting: the job in hand was given its grace by the loop's stop just before.
    if scheduler.running:
        scheduler.shutdown(wait=False)


def _rescan_soon(index_sync: IndexSync) -> None:
    # The watcher was re-armed and may have missed changes: the rescan finds them.
    task = asyncio.get_running_loop().create_task(index_sync.run(), name="nous-gap-rescan")
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


async def _cancel_rescans() -> None:
    # The next start's rescan finds what one cut short here would have.
    pending = [task for task in _BACKGROUND if not task.done()]
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending)
