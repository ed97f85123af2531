"""Self-improvement's parts, built for one agent: strategies, crystallizer, trials, pruner, engine.

Part of the composition root (beside the :mod:`scheduler.compose` package): the
daemon's loop and ``nous rsi`` both build their cycle here, so a cycle run by
hand crystallizes and carries strategies exactly as a scheduled one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cognition.cases import CaseBank
from cognition.embeddings import Embeddings, EndpointEmbedder
from cognition.llm import LLMClient
from graph.settings import CaseSettings, CodeNoteSettings, RSISettings, state_dir
from graph.store.memory import Memory
from rsi.code_note_prune import NoteBank
from rsi.crystallize import Crystallizer
from rsi.engine import RSIEngine
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
    chat_model: str = "",
    embeddings: Embeddings | None = None,
    cases: CaseSettings | None = None,
    code_notes: CodeNoteSettings | None = None,
) -> SelfImprovement:
    """Self-improvement's parts for ``memory``'s agent; the strategies files go to ``root/.nous``.

    ``llm`` None means no model: the rules reflect, nothing is practiced,
    crystallized or trialled. A crystallized heuristic is a candidate until
    its trial, at the end of the same cycle or a later one. De-duplication
    compares by ``embeddings``, the daemon's one embedding client (the one
    recall's vectors come from, with its cache); without it, by
    ``rsi.embedding_model`` at the LLM's endpoint when that is set, else the
    model judges. Practice keeps and recalls cases (``cases``: the settings'
    ``cases`` section, defaults when None); the pruner prunes the code notes too
    (``code_notes``: the settings' section, defaults when None). Reads the active heuristics once
    (writing the files if they are out of date); does no other I/O.
    """
    store = memory.heuristics
    events = memory.events
    book = StrategyBook(store, settings.max_strategy_tokens, state_dir=state_dir(root))
    await book.refresh()
    if embeddings is None and llm is not None and settings.embedding_model:
        embeddings = Embeddings(EndpointEmbedder(llm, settings.embedding_model))
    bank = CaseBank(memory.cases, cases or CaseSettings(), embeddings)
    crystallizer = Crystallizer(
        store,
        events,
        llm,
        settings,
        system_prompt=book.text,
        on_change=book.refresh,
        embeddings=embeddings if llm is not None else None,
        cases=bank,
    )

    trials = (
        HeuristicTrials(store, events, llm, settings, root=root, on_change=book.refresh, cases=bank)
        if llm is not None
        else None
    )
    engine = RSIEngine(
        memory,
        llm,
        settings,
        root=root,
        system_prompt=book.prompt,
        cases=bank,
        crystallizer=crystallizer,
        trials=trials,
    )
    notes = NoteBank(memory.code_notes, code_notes or CodeNoteSettings())
    pruner = Pruner(store, events, settings, on_change=book.refresh, cases=bank, code_notes=notes)
    return SelfImprovement(book, crystallizer, trials, pruner, engine)
