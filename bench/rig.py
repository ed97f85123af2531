"""The daemon's decision loop, built for a bench: an agent's intake and ``build_loop``.

Benches that decide (``bench.loop``, ``bench.llm``, ``bench.latency``,
``bench.learning``) measure the loop the daemon runs, so they build it with
the scheduler's own :func:`~scheduler.compose.loop.build_loop`; what they
leave out is the watcher: a bench writes its files and records its
observations itself, and rescans with ``index_sync`` when it needs the
daemon's view of the folder. :func:`scratch_loop` is that loop for a new
agent in a temporary folder, undone afterwards.
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from cognition.act.attribution import ActiveExecutions
from cognition.act.templates import TemplateRegistry
from cognition.loop import DecisionLoop
from cognition.sense.classify import ObservationClassifier
from cognition.sense.ingest import Ingestor
from graph.models import new_id
from graph.settings import Settings, child_environment
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from scheduler.compose.loop import LoopRuntime, build_loop, load_action_templates
from scheduler.index_sync import IndexSync


@dataclass(frozen=True)
class BenchLoop:
    """A built loop and what feeds it: the observation writer and the rescan."""

    ingestor: Ingestor
    index_sync: IndexSync
    runtime: LoopRuntime

    @property
    def loop(self) -> DecisionLoop:
        """The decision loop itself."""
        return self.runtime.loop


async def open_loop(
    stack: AsyncExitStack,
    settings: Settings,
    memory: Memory,
    root: Path,
    env: Mapping[str, str],
    *,
    classifier: ObservationClassifier | None = None,
    templates: TemplateRegistry | None = None,
) -> BenchLoop:
    """The daemon's loop for ``memory``'s agent on ``root``, its executors run with ``env``.

    On ``stack``: the LLM client's close and the episode's end (the caller
    stops the loop before unwinding it). ``templates`` defaults to the ones
    ``settings`` names; a bench that opens many loops passes them once.
    """
    attribution = ActiveExecutions()
    ingestor = Ingestor(
        memory, classifier or ObservationClassifier(settings.sense), attribute=attribution.attribute
    )
    index_sync = IndexSync(
        root, memory, ingestor, PathFilter([]), max_hash_bytes=settings.watch.max_hash_bytes
    )
    runtime = await build_loop(
        stack,
        settings,
        memory,
        root,
        index_sync,
        env,
        session_id=new_id(),
        templates=templates if templates is not None else load_action_templates(settings),
        attribution=attribution,
    )
    return BenchLoop(ingestor, index_sync, runtime)


@dataclass(frozen=True)
class ScratchLoop:
    """A new agent's loop in a temporary folder: its memory, classifier, folder and runtime."""

    memory: Memory
    classifier: ObservationClassifier
    root: Path
    runtime: LoopRuntime


@asynccontextmanager
async def scratch_loop(
    settings: Settings, driver: GraphDriver, name: str
) -> AsyncIterator[ScratchLoop]:
    """The daemon's loop for a new agent ``bench-<name>-…`` in a new temporary folder (made
    ``settings.watch.root``); afterwards the loop stopped, the LLM client closed, the
    episode ended, the agent forgotten and the folder removed."""
    memory = Memory(driver, f"bench-{name}-{new_id().lower()}")
    classifier = ObservationClassifier(settings.sense)
    with tempfile.TemporaryDirectory(prefix=f"nous-{name}-") as tmp:
        root = Path(tmp)
        settings.watch.root = root
        stack = AsyncExitStack()  # the LLM client's close and the episode's end
        built = await open_loop(
            stack, settings, memory, root, child_environment(), classifier=classifier
        )
        try:
            yield ScratchLoop(memory, classifier, root, built.runtime)
        finally:
            await built.loop.stop(0.0)
            await stack.aclose()
            await memory.forget()
