"""One agent's self-improvement, assembled: strategy book, crystalliser, pruner and cycle engine.

The daemon (``scheduler``) and ``python -m rsi`` build the same parts here,
so a cycle run by hand crystallises and carries strategies exactly as a
scheduled one does. Every LLM request of the parts carries the strategy
book's text first (seed 003 A1).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cognition.embeddings import Embeddings, EndpointEmbedder
from cognition.llm import LLMClient
from graph.settings import RSISettings
from graph.store.heuristics import HeuristicStore
from graph.store.learning import LearningStore
from graph.store.memory import Memory
from rsi.crystallize import Crystallizer
from rsi.engine import CycleResult, RSIEngine
from rsi.prune import Pruner
from rsi.strategies import StrategyBook


@dataclass
class SelfImprovement:
    """The strategies every request carries, what changes them, and the cycle."""

    strategies: StrategyBook
    crystallizer: Crystallizer
    pruner: Pruner
    engine: RSIEngine


async def build_self_improvement(
    settings: RSISettings,
    memory: Memory,
    llm: LLMClient | None,
    root: Path,
    *,
    chat_model: str = "",
    embeddings: Embeddings | None = None,
) -> SelfImprovement:
    """The parts for ``memory``'s agent; the strategies files go to ``root/.nous``.

    ``llm`` None means no model: the rules reflect, nothing is practised or
    crystallised. De-duplication compares by ``embeddings``, the daemon's one
    embedding client (the one recall's vectors come from, with its cache);
    without it, by ``rsi.embedding_model`` at the LLM's endpoint when that is
    set, else the model judges. Reads the active heuristics once (writing the
    files if they are out of date); does no other I/O.
    """
    store = HeuristicStore(memory)
    events = LearningStore(memory)
    book = StrategyBook(store, settings.max_strategy_tokens, state_dir=root / ".nous")
    await book.refresh()
    if embeddings is None and llm is not None and settings.embedding_model:
        embeddings = Embeddings(EndpointEmbedder(llm, settings.embedding_model))
    crystallizer = Crystallizer(
        store,
        events,
        llm,
        settings,
        system_prompt=book.text,
        on_change=book.refresh,
        embeddings=embeddings if llm is not None else None,
    )

    async def crystallise(result: CycleResult) -> int:
        # After the cycle's practice: every domain over the threshold, linked to this cycle.
        return (await crystallizer.run(cycle_id=result.cycle_id)).crystallized

    engine = RSIEngine(
        memory,
        llm,
        settings,
        root=root,
        after_cycle=[crystallise],
        system_prompt=book.text,
    )
    pruner = Pruner(store, events, settings, on_change=book.refresh)
    return SelfImprovement(book, crystallizer, pruner, engine)
