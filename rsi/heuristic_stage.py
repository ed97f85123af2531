"""What crystallization, the trial and pruning share: they are stages of a heuristic's life.

Each reads and writes the agent's heuristics (:class:`HeuristicStore`),
records what it decided as learning events, follows the RSI settings, and,
when the set of active heuristics changed, runs the ``on_change`` hook (the
strategy book's refresh, which rewrites the strategies files).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from graph.settings import RSISettings
from graph.store.events import EventStore
from graph.store.heuristics import HeuristicStore


class HeuristicStage:
    """A stage of a heuristic's life: :class:`rsi.crystallize.Crystallizer`,
    :class:`rsi.trial.HeuristicTrials` and :class:`rsi.prune.Pruner`."""

    def __init__(
        self,
        store: HeuristicStore,
        events: EventStore,
        settings: RSISettings,
        *,
        on_change: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self.store = store
        self.events = events
        self.settings = settings
        self._on_change = on_change

    async def _active_set_changed(self) -> None:
        """Tell the ``on_change`` hook, if there is one, that the active heuristics changed."""
        if self._on_change is not None:
            await self._on_change()
