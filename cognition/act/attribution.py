"""Which execution made a change: the agent's own edits are observed but never acted on.

While an execution runs in the watched root, and for a short grace period
after it ends (the watcher reports changes after its debounce), every
observation is attributed to it: ``caused_by`` is set, the observation is
written ``CAUSED_BY`` that ``Execution`` and already processed, so no
decision ever starts from it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from graph.models import Observation

DEFAULT_GRACE_S = 2.0


class ActiveExecutions:
    """The executions running now, and those that ended within the grace period."""

    def __init__(
        self, grace_s: float = DEFAULT_GRACE_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.grace_s = grace_s
        self._clock = clock
        self._running: dict[str, float] = {}
        self._ended: dict[str, float] = {}

    @contextmanager
    def running(self, execution_id: str) -> Iterator[None]:
        """Mark ``execution_id`` as running for the duration of the block."""
        self._running[execution_id] = self._clock()
        try:
            yield
        finally:
            self._running.pop(execution_id, None)
            self._ended[execution_id] = self._clock()

    def current(self) -> str | None:
        """The execution a change seen now belongs to (the latest started), or None."""
        if self._running:
            return max(self._running, key=self._running.__getitem__)
        now = self._clock()
        self._ended = {k: t for k, t in self._ended.items() if now - t <= self.grace_s}
        if self._ended:
            return max(self._ended, key=self._ended.__getitem__)
        return None

    def attribute(self, observation: Observation) -> Observation:
        """The observation with ``caused_by`` set when an execution is (just) running."""
        if observation.caused_by is not None or not observation.is_file_change:
            return observation
        if observation.metadata.get("source") == "rescan":
            # A rescan finds what changed while nobody watched (a person's edits,
            # events the kernel dropped): never the agent's edit of the moment.
            return observation
        execution_id = self.current()
        if execution_id is None:
            return observation
        return observation.model_copy(update={"caused_by": execution_id, "processed": True})
