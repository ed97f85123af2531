"""The composition root: every part of Nous is built here from the settings and connected.

The daemon (:func:`build`: the memory, ingestion, the watcher, the decision
loop, self-improvement and the reconciler) and the short-lived processes
(:func:`connected`: ``nous`` subcommands, ``nous rsi``) get their parts
here and nowhere else, so a cycle run by hand crystallizes and carries
strategies exactly as a scheduled one does. Nothing here runs a part:
:mod:`scheduler.app` runs the lifecycle and :mod:`scheduler.jobs` schedules.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from cognition.act.actor import Actor
from cognition.act.attribution import ActiveExecutions
from cognition.act.budget import ActionBudget
from cognition.act.executors import InternalExecutor, executors_for
from cognition.act.fillable import template_options
from cognition.act.locate import templates_source
from cognition.act.templates import TemplateRegistry, load_templates
from cognition.carried import SystemPromptSource
from cognition.deliberate import AutoReasoner, LLMReasoner, RulesReasoner
from cognition.embeddings import Embeddings, build_embeddings
from cognition.errors import TemplateError
from cognition.frames.engine import FrameEngine
from cognition.learn.learner import CensorBook, OutcomeLearner
from cognition.llm import LLMClient
from cognition.loop import DecisionLoop, LoopSettings
from cognition.monitor import Monitor
from cognition.monitor.handle_failure import handle_failure
from cognition.recall.gather import Recall
from cognition.recall.hybrid import HybridRecall
from cognition.recall.investigate import Investigator
from cognition.recall.vectors import ModelChangedError, VectorJob
from cognition.reconcile import LoopParts, Reconciler
from cognition.sense.classify import ObservationBatcher, ObservationClassifier
from cognition.sense.ingest import Ingestor
from cognition.sense.spool import open_intake_spool
from graph.errors import SettingsError
from graph.models import new_id
from graph.server.finder import Neo4jEndpoint, find_or_start
from graph.settings import Settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.migrate import apply_migrations
from graph.watch.files import PathFilter
from graph.watch.watcher import FileWatcher
from scheduler.improvement import SelfImprovement, build_self_improvement
from scheduler.index_sync import IndexSync

# The most of a file recall reads; the largest frame budget shows far less of it.
MAX_CONTENT_BYTES = 64 * 1024
# Changes reach the graph one debounce after they happen; attribute late ones too.
ATTRIBUTION_SLACK_S = 1.5


@dataclass
class Connected:
    """What a short-lived process (a ``nous`` subcommand) gets: the memory, and the LLM client."""

    settings: Settings
    endpoint: Neo4jEndpoint
    memory: Memory
    llm: LLMClient | None
    root: Path


@asynccontextmanager
async def connected(
    settings: Settings,
    environ: Mapping[str, str],
    *,
    start_neo4j: bool = False,
    migrate: bool = False,
    llm: bool = False,
) -> AsyncIterator[Connected]:
    """Find Neo4j (start one with ``start_neo4j``), open the memory; close it all after.

    ``migrate`` applies the schema first (as the daemon does); ``llm`` opens
    the LLM client. Raises :class:`~graph.errors.GraphError` when Neo4j
    cannot be found or reached.
    """
    endpoint = await asyncio.to_thread(
        find_or_start, settings.neo4j, allow_start=start_neo4j, environ=environ
    )
    driver = GraphDriver(endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database)
    client = LLMClient(settings.llm) if llm else None
    try:
        await driver.start()
        if migrate:
            await apply_migrations(driver)
        if client is not None:
            await client.start()
        root = settings.watch.root.expanduser().resolve()
        yield Connected(settings, endpoint, Memory(driver, settings.agent_id), client, root)
    finally:
        if client is not None:
            await client.close()
        await driver.close()


@dataclass
class LoopRuntime:
    """The decision loop and the parts the daemon must start, report on and close."""

    loop: DecisionLoop
    llm: LLMClient
    budget: ActionBudget
    attribution: ActiveExecutions
    episode_id: str
    templates: TemplateRegistry
    rsi: SelfImprovement
    vectors: VectorJob | None = None  # None: embeddings.provider is off

    async def close(self) -> None:
        """End the daemon's episode, say so in the event stream, close the LLM client."""
        try:
            memory = self.loop.memory
            await memory.episodes.end_episode(
                self.episode_id, outcome="completed", summary="daemon stopped"
            )
            await memory.events.emit(
                "daemon_stopped",
                {"decisions": self.loop.decided, "episode_id": self.episode_id},
                session_id=self.loop.session_id,
            )
        finally:
            await self.llm.close()


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
    """Find Neo4j, apply the schema and build the daemon's parts (nothing runs yet).

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
        memory = Memory(driver, settings.agent_id)
        grace_s = settings.watch.debounce_ms / 1000 + ATTRIBUTION_SLACK_S
        attribution = ActiveExecutions(grace_s=grace_s)
        ingestor = Ingestor(
            memory,
            ObservationClassifier(settings.sense),
            batch_size=settings.sense.write_batch_size,
            queue_limit=settings.sense.queue_limit,
            attribute=attribution.attribute,
            spool=open_intake_spool(root, settings.intake),
            in_memory=settings.intake.in_memory,
        )
        watcher = FileWatcher(root, settings.watch, settings.agent_id)
        index_sync = IndexSync(
            root,
            memory,
            ingestor,
            PathFilter(settings.watch.ignore_patterns),
            max_hash_bytes=settings.watch.max_hash_bytes,
            recent=watcher.recent,
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
    except BaseException:
        await driver.close()
        raise
    return Nous(settings, root, endpoint, driver, memory, ingestor, watcher, index_sync, runtime)


def load_action_templates(settings: Settings) -> TemplateRegistry:
    """The action templates in force, validated; a bad file is a settings error (exit code 2).

    ``templates_file`` if set, else the watched root's ``.nous/templates.yaml``,
    else the shipped ones (:func:`cognition.act.locate.templates_source`).
    """
    source = templates_source(settings.templates_file, settings.watch.root)
    try:
        return load_templates(source.path)
    except TemplateError as exc:
        raise SettingsError(str(exc)) from None


async def build_loop(
    settings: Settings,
    memory: Memory,
    root: Path,
    index_sync: IndexSync,
    environ: Mapping[str, str],
    *,
    session_id: str,
    templates: TemplateRegistry,
    attribution: ActiveExecutions,
) -> LoopRuntime:
    """Build the decision loop and everything it needs; start its episode."""
    # The graph writes come first: if one fails, nothing is left open. The LLM
    # client's start does no I/O, and the event emitted last never raises.
    await memory.decisions.upsert_goals(settings.goals)
    frames = FrameEngine(memory)
    await frames.seed()
    llm = LLMClient(settings.llm)
    # One embedding client (and cache) for recall's vectors and RSI's de-duplication.
    embeddings = build_embeddings(settings.embeddings, llm)
    vectors = await _vector_job(settings, memory, root, embeddings)
    # The constitution and strategies: first in every request of the loop and of RSI. Read
    # (and the strategies files written) before the episode opens and the client starts.
    rsi = await build_self_improvement(
        settings.rsi,
        memory,
        llm,
        root,
        settings.llm.model,
        embeddings=embeddings,
        cases=settings.cases,
    )
    episode_id = (await memory.episodes.start_episode(session_id))[0].id
    await llm.start()
    budget = ActionBudget(settings.budget)
    actor = _actor(settings, memory, root, index_sync, environ, budget, attribution)
    recall = _recall(settings, memory, root, templates, embeddings)
    loop = DecisionLoop(
        memory=memory,
        frames=frames,
        recall=recall,
        reasoner=_reasoner(settings, llm, rsi.strategies.prompt),
        templates=templates,
        actor=actor,
        learner=OutcomeLearner(memory, dry_run=settings.executors.dry_run),
        censors=CensorBook(memory.censors),
        batcher=ObservationBatcher(settings.sense.batch_window_s, settings.sense.max_batch_size),
        settings=LoopSettings(settings.schedule, settings.budget, settings.thresholds),
        session_id=session_id,
        episode_id=episode_id,
        investigator=Investigator(
            memory,
            llm if settings.reasoner != "rules" else None,
            system_prompt=rsi.strategies.prompt,
            meaning=recall.meaning,
        ),
    )
    await _announce_start(settings, memory, root, session_id)
    return LoopRuntime(loop, llm, budget, attribution, episode_id, templates, rsi, vectors)


async def _vector_job(
    settings: Settings, memory: Memory, root: Path, embeddings: Embeddings | None
) -> VectorJob | None:
    """The job that embeds new memories (None without embeddings); refuses a changed model."""
    if embeddings is None:
        return None
    vectors = VectorJob(memory, embeddings, settings.embeddings, root)
    try:
        await vectors.check_model()
    except ModelChangedError as exc:
        raise SettingsError(str(exc)) from None
    return vectors


def _recall(
    settings: Settings,
    memory: Memory,
    root: Path,
    templates: TemplateRegistry,
    embeddings: Embeddings | None,
) -> Recall:
    """Recall for the loop: by key and word, and by meaning when embeddings are on."""
    llm_fills = settings.reasoner != "rules"
    return Recall(
        memory,
        root,
        templates_for=lambda o, f: template_options(templates, o, f, reasoner_supplies=llm_fills),
        max_content_bytes=MAX_CONTENT_BYTES,
        meaning=HybridRecall(memory, embeddings, settings.embeddings) if embeddings else None,
    )


def _reasoner(
    settings: Settings, llm: LLMClient, system_prompt: SystemPromptSource
) -> AutoReasoner:
    """The model's reasoner with the rules' beside it, chosen by ``settings.reasoner``."""
    return AutoReasoner(
        LLMReasoner(
            llm,
            settings.thresholds,
            deliberation=settings.llm.deliberation,
            system_prompt=system_prompt,
        ),
        RulesReasoner(settings.thresholds),
        mode=settings.reasoner,
        client=llm,
    )


def _actor(
    settings: Settings,
    memory: Memory,
    root: Path,
    index_sync: IndexSync,
    environ: Mapping[str, str],
    budget: ActionBudget,
    attribution: ActiveExecutions,
) -> Actor:
    """The actor, with the executors the settings allow and the internal actions registered."""
    internal = InternalExecutor(settings.executors)
    internal.register("handle_failure", handle_failure)
    internal.register("rescan", index_sync.as_action)
    executors = executors_for(settings.executors, environ, internal)
    return Actor(memory.decisions, executors, budget, attribution, root, Monitor())


async def _announce_start(settings: Settings, memory: Memory, root: Path, session_id: str) -> None:
    """Record ``daemon_started``: `nous status` tells from its pid and host whether it runs."""
    await memory.events.emit(
        "daemon_started",
        {
            "root": str(root),
            "reasoner": settings.reasoner,
            "dry_run": settings.executors.dry_run,
            "pid": os.getpid(),
            "host": socket.gethostname(),
        },
        session_id=session_id,
    )


def build_reconciler(settings: Settings, memory: Memory, runtime: LoopRuntime) -> Reconciler:
    """The reconciler for this daemon's agent, sharing the loop's actor, budget and stores."""
    loop = runtime.loop
    parts = LoopParts(
        memory=loop.memory,
        actor=loop.actor,
        templates=loop.templates,
        learner=loop.learner,
        censors=loop.censors,
        retry_after=timedelta(seconds=settings.schedule.deferred_retry_s),
    )
    return Reconciler(
        memory,
        runtime.budget,
        parts,
        session_id=loop.session_id or "",
    )
