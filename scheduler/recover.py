"""Building the reconciler at start from the parts of a running daemon."""

from __future__ import annotations

from datetime import timedelta

from cognition.act.reconcile import LoopParts, Reconciler
from graph.settings import Settings
from graph.store.memory import Memory
from graph.store.recovery import RecoveryStore
from scheduler.compose import LoopRuntime


def build_reconciler(settings: Settings, memory: Memory, runtime: LoopRuntime) -> Reconciler:
    """The reconciler for this daemon's agent, sharing the loop's actor, budget and stores."""
    loop = runtime.loop
    parts = LoopParts(
        decisions=loop.decisions,
        actor=loop.actor,
        templates=loop.templates,
        learner=loop.learner,
        censors=loop.censors,
        retry_after=timedelta(seconds=settings.schedule.deferred_retry_s),
    )
    return Reconciler(
        RecoveryStore(memory),
        runtime.store,
        runtime.episodes,
        runtime.budget,
        parts,
        session_id=loop.session_id or "",
    )
