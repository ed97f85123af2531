"""The decision loop and what it needs, built in named steps; clean-ups on the caller's stack.

:func:`build_loop` is used by the daemon (:mod:`scheduler.compose.daemon`)
and, the same way, by the tests and benchmarks that drive the loop alone.
Each part that needs closing (the LLM client, the daemon's episode) puts its
clean-up on the exit stack as it opens, so the caller stops it all by
leaving the stack. Stopping the loop itself (the decision in hand and its
grace) is the caller's: it comes before everything here.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from cognition.act.actor import Actor
from cognition.act.attribution import ActiveExecutions
from cognition.act.budget import ActionBudget
from cognition.act.executors import Executor, InternalExecutor, executors_for
from cognition.act.fillable import template_options
from cognition.act.locate import templates_source
from cognition.act.templates import TemplateRegistry, load_templates
from cognition.act.test_order import TestOrder
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
from cognition.sense.classify import ObservationBatcher
from graph.errors import SettingsError
from graph.models import ActionTarget
from graph.settings import Settings
from graph.store.memory import Memory
from scheduler.improvement import SelfImprovement, build_self_improvement
from scheduler.index_sync import IndexSync

# The most of a file recall reads; the largest frame budget shows far less of it.
MAX_CONTENT_BYTES = 64 * 1024


@dataclass
class LoopRuntime:
    """The decision loop and the parts the daemon schedules, reports on and reconciles with."""

    loop: DecisionLoop
    llm: LLMClient
    budget: ActionBudget
    templates: TemplateRegistry
    rsi: SelfImprovement
    reconciler: Reconciler
    vectors: VectorJob | None = None  # None: embeddings.provider is off


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
    stack: AsyncExitStack,
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
    """Build the decision loop, its reconciler and self-improvement; start the loop's episode.

    On ``stack``: the LLM client's close, then the episode's end with the
    ``daemon_stopped`` event (so unwound in the reverse order).
    """
    # The graph writes come first; the LLM client's start does no I/O.
    await memory.decisions.upsert_goals(settings.goals)
    frames = FrameEngine(memory)
    await frames.seed()
    llm = LLMClient(settings.llm)
    stack.push_async_callback(llm.close)
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
        code_notes=settings.code_notes,
    )
    episode_id = (await memory.episodes.start_episode(session_id))[0].id
    # Its end is on the stack from the moment it opens: a part that fails to build below
    # still leaves the episode ended and ``daemon_stopped`` said.
    built: list[DecisionLoop] = []
    stack.push_async_callback(_end_episode, memory, session_id, episode_id, built)
    await llm.start()
    budget = ActionBudget(settings.budget)
    executors = _executors(settings, index_sync, environ)
    actor = Actor(memory.decisions, executors, budget, attribution, root, Monitor())
    # One set of acting parts, shared by the loop and the reconciler.
    parts = _acting_parts(settings, memory, actor, templates)
    recall = _recall(settings, memory, root, templates, embeddings)
    loop = _decision_loop(settings, llm, rsi, frames, recall, parts, (session_id, episode_id))
    built.append(loop)
    reconciler = Reconciler(memory, budget, parts, session_id=session_id)
    await _announce_start(settings, memory, root, session_id)
    return LoopRuntime(loop, llm, budget, templates, rsi, reconciler, vectors)


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


def _acting_parts(
    settings: Settings, memory: Memory, actor: Actor, templates: TemplateRegistry
) -> LoopParts:
    """What acts and learns from acting: the loop's, and the reconciler's for its retries."""
    return LoopParts(
        memory=memory,
        actor=actor,
        templates=templates,
        learner=OutcomeLearner(memory, dry_run=settings.executors.dry_run),
        censors=CensorBook(memory.censors),
        retry_after=timedelta(seconds=settings.schedule.deferred_retry_s),
    )


def _executors(
    settings: Settings, index_sync: IndexSync, environ: Mapping[str, str]
) -> dict[ActionTarget, Executor]:
    """The executors the settings allow, with the internal actions registered."""
    internal = InternalExecutor(settings.executors)
    internal.register("handle_failure", handle_failure)
    internal.register("rescan", index_sync.as_action)
    return executors_for(settings.executors, environ, internal)


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


def _decision_loop(
    settings: Settings,
    llm: LLMClient,
    rsi: SelfImprovement,
    frames: FrameEngine,
    recall: Recall,
    parts: LoopParts,
    ids: tuple[str, str],
) -> DecisionLoop:
    """The loop over ``parts``; ``ids``: the daemon's session and the episode opened for it."""
    memory = parts.memory
    return DecisionLoop(
        memory=memory,
        frames=frames,
        recall=recall,
        reasoner=_reasoner(settings, llm, rsi.strategies.prompt),
        templates=parts.templates,
        actor=parts.actor,
        learner=parts.learner,
        censors=parts.censors,
        batcher=ObservationBatcher(settings.sense.batch_window_s, settings.sense.max_batch_size),
        settings=LoopSettings(settings.schedule, settings.budget, settings.thresholds),
        session_id=ids[0],
        episode_id=ids[1],
        investigator=Investigator(
            memory,
            llm if settings.reasoner != "rules" else None,
            system_prompt=rsi.strategies.prompt,
            meaning=recall.meaning,
        ),
        test_order=TestOrder(
            memory.test_runs,
            parts.actor.root,
            parts.templates,
            enabled=settings.executors.tests_first,
        ),
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


async def _end_episode(
    memory: Memory, session_id: str, episode_id: str, built: list[DecisionLoop]
) -> None:
    """End the daemon's episode and say so in the event stream (``daemon_stopped``), with the
    decisions of the loop in ``built`` (none when it was never built)."""
    await memory.episodes.end_episode(episode_id, outcome="completed", summary="daemon stopped")
    await memory.events.emit(
        "daemon_stopped",
        {"decisions": sum(loop.decided for loop in built), "episode_id": episode_id},
        session_id=session_id,
    )
