"""Self-improvement's parts of the daemon: the strategy book, the crystalliser, the pruner.

Built here, in the composition root, because ``cognition`` may not import
``rsi``: the decision loop's LLM reasoner receives the system prompt as a
callable (:meth:`StrategyBook.prompt`), and the daily prune job is an
APScheduler cron job from ``rsi.prune_cron``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from cognition.embeddings import Embeddings
from cognition.llm import LLMClient
from graph.settings import RSISettings
from graph.store.heuristics import HeuristicStore
from graph.store.learning import LearningStore
from graph.store.memory import Memory
from rsi.crystallize import Crystallizer
from rsi.prune import Pruner, PruneReport
from rsi.strategies import StrategyBook

log = logging.getLogger(__name__)


@dataclass
class SelfImprovement:
    """The strategies every request carries, and what changes them."""

    strategies: StrategyBook
    crystallizer: Crystallizer
    pruner: Pruner

    async def prune(self) -> PruneReport | None:
        """The daily job: prune, never letting a failure reach the scheduler."""
        try:
            return await self.pruner.run()
        except Exception:
            log.exception("heuristic pruning failed; the next run tries again")
            return None


async def build_self_improvement(
    settings: RSISettings,
    memory: Memory,
    llm: LLMClient | None,
    root: Path,
    *,
    chat_model: str = "",
) -> SelfImprovement:
    """The strategy book (strategies files under ``root/.nous``), crystalliser and pruner.

    Embeddings for de-duplication ask ``rsi.embedding_model``, else ``chat_model``.
    """
    store = HeuristicStore(memory)
    events = LearningStore(memory)
    book = StrategyBook(store, settings.max_strategy_tokens, state_dir=root / ".nous")
    await book.refresh()
    model = settings.embedding_model or chat_model
    crystallizer = Crystallizer(
        store,
        events,
        llm,
        settings,
        system_prompt=book.text,
        on_change=book.refresh,
        embeddings=Embeddings(llm, model) if llm is not None and model else None,
    )
    pruner = Pruner(store, events, settings, on_change=book.refresh)
    return SelfImprovement(book, crystallizer, pruner)


def register_prune_job(
    scheduler: AsyncIOScheduler, settings: RSISettings, parts: SelfImprovement
) -> str:
    """Add the daily heuristic pruning job; return its description for the banner."""
    scheduler.add_job(
        parts.prune,
        CronTrigger.from_crontab(settings.prune_cron),
        id="heuristic_prune",
        max_instances=1,
        coalesce=True,
        misfire_grace_time=3600,
    )
    return f"heuristic pruning (cron '{settings.prune_cron}')"
