"""One agent's self-improvement, assembled: strategy book, crystalliser, trials, pruner, engine.

The daemon (``scheduler``) and ``python -m rsi`` build the same parts here,
so a cycle run by hand crystallises and carries strategies exactly as a
scheduled one does. Every LLM request of the parts carries the strategy
book's text first (seed 003 A1).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cognition.embeddings import Embeddings
from cognition.llm import LLMClient
from graph.models import HeuristicStatus, RSICycle
from graph.settings import RSISettings
from graph.store.heuristics import HeuristicStore
from graph.store.learning import LearningStore
from graph.store.memory import Memory
from rsi.crystallize import Crystallizer
from rsi.engine import CycleHook, RSIEngine
from rsi.prune import Pruner
from rsi.strategies import StrategyBook
from rsi.trial import HeuristicTrials


@dataclass
class SelfImprovement:
    """The strategies every request carries, what changes them, and the cycle."""

    strategies: StrategyBook
    crystallizer: Crystallizer
    trials: HeuristicTrials | None
    pruner: Pruner
    engine: RSIEngine


async def build_self_improvement(
    settings: RSISettings,
    memory: Memory,
    llm: LLMClient | None,
    root: Path,
    *,
    chat_model: str = "",
) -> SelfImprovement:
    """The parts for ``memory``'s agent; the strategies files go to ``root/.nous``.

    ``llm`` None means no model: the rules reflect, nothing is practised,
    crystallised or trialled. Embeddings for de-duplication ask ``rsi.embedding_model``,
    else ``chat_model``. Reads the active heuristics once (writing the files
    if they are out of date); does no other I/O.
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
    trials = (
        HeuristicTrials(store, events, llm, settings, root=root, on_change=book.refresh)
        if llm is not None
        else None
    )

    async def crystallise(result: RSICycle) -> None:
        # After the cycle's practice: every domain over the threshold, linked to this cycle.
        result.crystallised += (await crystallizer.run(cycle_id=result.id)).crystallized

    async def trial(result: RSICycle) -> None:
        # Candidates (this cycle's or older) earn their place before any prompt carries them.
        assert trials is not None
        for heuristic in await trials.run(cycle_id=result.id):
            result.trials += 1
            result.activated += heuristic.status == HeuristicStatus.ACTIVE
            result.rejected_heuristics += heuristic.status == HeuristicStatus.REJECTED

    hooks: list[CycleHook] = [crystallise] if trials is None else [crystallise, trial]
    engine = RSIEngine(
        memory, llm, settings, root=root, after_cycle=hooks, system_prompt=book.prompt
    )
    pruner = Pruner(store, events, settings, on_change=book.refresh)
    return SelfImprovement(book, crystallizer, trials, pruner, engine)
