"""A Claude Code session's parts: a hook's own, or the daemon's hook socket's.

Part of the composition root, kept light: a hook imports this module and
none of the daemon's (no scheduler, no decision loop). The driver goes
straight to the configured Neo4j (:mod:`scheduler.compose.hook_driver`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from cognition.chat.cases import SessionCases
from cognition.chat.code_notes import SessionNotes
from cognition.chat.layer import CognitiveLayer
from cognition.decisions.recall import DecisionRecall
from cognition.frames.engine import FrameEngine
from graph.store.memory import Memory
from graph.watch.project import project_of
from scheduler.claude.prompt_recall import PromptRecall
from scheduler.claude.session import ClaudeSession
from scheduler.compose.hook_driver import open_driver

if TYPE_CHECKING:
    # The vectors child's parts, loaded by it alone (the hook's own path never embeds).
    from cognition.embeddings import Embeddings
    from cognition.recall.vectors import VectorJob
    from graph.settings import Settings
    from graph.settings_lean import HookSettings


@asynccontextmanager
async def open_memory(
    settings: Settings | HookSettings, *, lean: bool = False
) -> AsyncIterator[Memory]:
    """The agent's memory over a driver straight to the configured Neo4j; closed on the way out.

    ``lean``: over the hook's own Bolt client, one connection (a plain ``bolt://``
    address; the official driver for anything else), for a process that must start fast.
    """
    async with open_driver(settings, lean=lean) as driver:
        yield Memory(driver, settings.agent_id)


@asynccontextmanager
async def open_session(
    settings: Settings | HookSettings, root: Path
) -> AsyncIterator[ClaudeSession]:
    """A started session over the agent's memory (the hook's own Bolt client, one
    connection); the driver closed on the way out."""
    async with open_memory(settings, lean=True) as memory:
        yield build_session(memory, settings, root)


def hook_embeddings(settings: Settings) -> Embeddings | None:
    """The embedded model a hook's vectors child embeds with (None: embeddings off, or an
    endpoint, which the daemon's LLM client embeds)."""
    from cognition.embeddings import build_embeddings

    return build_embeddings(settings.embeddings, None)


def hook_vector_job(
    memory: Memory,
    embeddings: Embeddings,
    settings: Settings,
    root: Path,
    *,
    labels: Sequence[str],
    since: datetime,
) -> VectorJob:
    """The vector job of a hook's child: ``labels``' nodes written since ``since``."""
    from cognition.recall.vectors import VectorJob

    return VectorJob(memory, embeddings, settings.embeddings, root, labels=labels, since=since)


def build_session(
    memory: Memory, settings: Settings | HookSettings, root: Path, *, history: bool = False
) -> ClaudeSession:
    """The hooks' session over ``memory`` (a hook's own, the running daemon's or the team
    server's); ``history``: a session's start reads ``root``'s new commits (with
    ``history.enabled``: the team server's, which runs no job that reads them)."""
    decisions = memory.team_decisions(project_of(root, settings.project))
    recall = PromptRecall(memory, root, settings.embeddings, decisions=DecisionRecall(decisions))
    layer = CognitiveLayer(
        memory,
        FrameEngine(memory),
        context_builder=recall,
        cases=SessionCases(memory, settings.cases),
        code_notes=SessionNotes(memory, settings.code_notes),
    )
    reads = (root, settings.history) if history and settings.history.enabled else None
    return ClaudeSession(layer, memory.turns, settings.claude, decisions, history=reads)
