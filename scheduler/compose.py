"""Building the decision loop from the settings: reasoners, templates, executors, learning.

Kept apart from :mod:`scheduler.app` so that the daemon's composition reads
in two parts: the memory and its ingestion there, the thinking loop here.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from cognition.act.actor import Actor
from cognition.act.attribution import ActiveExecutions
from cognition.act.budget import ActionBudget
from cognition.act.conditions import FileFacts
from cognition.act.executors import (
    ClaudeCodeExecutor,
    ClaudeFlowExecutor,
    DryRunExecutor,
    ExecutionRequest,
    Executor,
    InternalExecutor,
)
from cognition.act.fillable import can_fill
from cognition.act.internal import handle_failure
from cognition.act.templates import TemplateRegistry, load_templates
from cognition.deliberate import AutoReasoner, LLMReasoner, RulesReasoner
from cognition.embeddings import build_embeddings
from cognition.errors import TemplateError
from cognition.frames.engine import FrameEngine
from cognition.learn.learner import CensorBook, Episodes, OutcomeLearner
from cognition.llm import LLMClient
from cognition.loop import DecisionLoop, LoopSettings
from cognition.recall.gather import Recall
from cognition.recall.hybrid import HybridRecall
from cognition.recall.investigate import Investigator
from cognition.recall.vectors import ModelChangedError, VectorJob
from cognition.schemas import FileView, TemplateOption
from cognition.sense.classify import ObservationBatcher
from graph.errors import SettingsError
from graph.models import ActionTarget, Observation
from graph.settings import Settings
from graph.store.decisions import DecisionStore
from graph.store.learning import LearningStore
from graph.store.memory import Memory
from rsi.build import SelfImprovement, build_self_improvement
from scheduler.jobs import IndexSync

# The most of a file recall reads; the largest frame budget shows far less of it.
MAX_CONTENT_BYTES = 64 * 1024
# Changes reach the graph one debounce after they happen; attribute late ones too.
ATTRIBUTION_SLACK_S = 1.5


@dataclass
class LoopRuntime:
    """The decision loop and the parts the daemon must start, report on and close."""

    loop: DecisionLoop
    llm: LLMClient
    budget: ActionBudget
    attribution: ActiveExecutions
    episodes: Episodes
    episode_id: str
    templates: TemplateRegistry
    store: LearningStore
    rsi: SelfImprovement
    vectors: VectorJob | None = None  # None: embeddings.provider is off

    async def close(self) -> None:
        """End the daemon's episode, say so in the event stream, close the LLM client."""
        try:
            await self.episodes.end(self.episode_id, outcome="completed", summary="daemon stopped")
            await self.store.emit(
                "daemon_stopped",
                {"decisions": self.loop.decided, "episode_id": self.episode_id},
                session_id=self.loop.session_id,
            )
        finally:
            await self.llm.close()


def load_action_templates(settings: Settings) -> TemplateRegistry:
    """The action templates, validated; a bad file is a settings error (exit code 2)."""
    try:
        return load_templates(settings.templates_file)
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
    decisions = DecisionStore(memory)
    await decisions.upsert_goals(settings.goals)
    frames = FrameEngine(memory)
    await frames.seed()
    llm = LLMClient(settings.llm)
    # One embedding client (and cache) for recall's vectors and RSI's de-duplication.
    embeddings = build_embeddings(settings.embeddings, llm)
    vectors = VectorJob(memory, embeddings, settings.embeddings, root) if embeddings else None
    if vectors is not None:
        try:
            await vectors.check_model()
        except ModelChangedError as exc:
            raise SettingsError(str(exc)) from None
    # The constitution and strategies: first in every request of the loop and of RSI. Read
    # (and the strategies files written) before the episode opens and the client starts.
    rsi = await build_self_improvement(
        settings.rsi, memory, llm, root, chat_model=settings.llm.model, embeddings=embeddings
    )
    store = LearningStore(memory)
    episodes = Episodes(store)
    episode_id = await episodes.start(session_id)
    await llm.start()
    reasoner = AutoReasoner(
        LLMReasoner(
            llm,
            settings.thresholds,
            deliberation=settings.llm.deliberation,
            system_prompt=rsi.strategies.prompt,
        ),
        RulesReasoner(settings.thresholds),
        mode=settings.reasoner,
        client=llm,
    )
    budget = ActionBudget(settings.budget)
    actor = Actor(decisions, executors(settings, environ, index_sync), budget, attribution, root)
    llm_fills = settings.reasoner != "rules"
    recall = Recall(
        memory,
        root,
        templates_for=lambda o, f: template_options(templates, o, f, reasoner_supplies=llm_fills),
        max_content_bytes=MAX_CONTENT_BYTES,
        meaning=HybridRecall(memory, embeddings, settings.embeddings) if embeddings else None,
    )
    loop = DecisionLoop(
        decisions=decisions,
        frames=frames,
        recall=recall,
        reasoner=reasoner,
        templates=templates,
        actor=actor,
        learner=OutcomeLearner(store),
        censors=CensorBook(store),
        batcher=ObservationBatcher(settings.sense.batch_window_s, settings.sense.max_batch_size),
        settings=LoopSettings(
            max_observations=settings.schedule.decision_max_observations,
            max_investigation_rounds=settings.schedule.max_investigation_rounds,
            max_wait_rounds=settings.schedule.max_wait_rounds,
            deferred_retry_s=settings.schedule.deferred_retry_s,
            investigate_delay_s=settings.schedule.investigate_delay_s,
            max_concurrent=settings.budget.max_concurrent,
            thresholds=settings.thresholds,
        ),
        session_id=session_id,
        episode_id=episode_id,
        investigator=Investigator(
            memory, llm if llm_fills else None, system_prompt=rsi.strategies.prompt
        ),
    )
    await store.emit(
        "daemon_started",
        {
            "root": str(root),
            "reasoner": settings.reasoner,
            "dry_run": settings.executors.dry_run,
            # `nous status` tells from these whether this daemon still runs.
            "pid": os.getpid(),
            "host": socket.gethostname(),
        },
        session_id=session_id,
    )
    return LoopRuntime(
        loop, llm, budget, attribution, episodes, episode_id, templates, store, rsi, vectors
    )


def executors(
    settings: Settings, environ: Mapping[str, str], index_sync: IndexSync
) -> dict[ActionTarget, Executor]:
    """One executor per target; all of them dry runs when ``executors.dry_run`` is set."""
    internal = InternalExecutor(settings.executors)
    internal.register("handle_failure", handle_failure)

    async def rescan(_: ExecutionRequest) -> str:
        result = await index_sync.run()
        if result is None:
            raise RuntimeError(index_sync.last_error or "index sync failed")
        return f"{result.files_seen} files seen, {len(result.observations)} changes recorded"

    internal.register("rescan", rescan)
    real: dict[ActionTarget, Executor] = {
        ActionTarget.CLAUDE_CODE: ClaudeCodeExecutor(settings.executors, env=environ),
        ActionTarget.CLAUDE_FLOW: ClaudeFlowExecutor(settings.executors, env=environ),
        ActionTarget.INTERNAL: internal,
    }
    if settings.executors.dry_run:
        real = {target: DryRunExecutor(executor) for target, executor in real.items()}
    real[ActionTarget.DRY_RUN] = DryRunExecutor()
    return real


def template_options(
    templates: TemplateRegistry,
    observation: Observation,
    file: FileView | None,
    *,
    reasoner_supplies: bool = False,
) -> list[TemplateOption]:
    """The templates that match an observation and can be filled, as recall offers them.

    A template whose required parameters cannot get a value (from the
    observation, its extraction rules, or, with ``reasoner_supplies``, an
    LLM's DECIDE reply) is not offered: acting on it could only fail.
    """
    error_count = observation.metadata.get("error_count", 0)
    facts = FileFacts(
        size=file.size if file else None,
        content_head=file.content_head if file else None,
        error_count=error_count if isinstance(error_count, int) else 0,
    )
    content = file.content_head if file else None
    return [
        TemplateOption(
            name=t.name,
            description=t.description,
            target=t.target,
            parameters=[n for n, p in t.parameters.items() if p.source_for(n) in (None, "extra")],
        )
        for t in templates.match(observation, facts)
        if can_fill(t, observation, content, reasoner_supplies=reasoner_supplies)
    ]
