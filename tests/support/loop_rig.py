"""A decision loop built as the daemon builds it (``build_loop``), on a temporary root.

For the tests that tick the loop and let its actions run: the rules decide
(the LLM address answers nothing), the executor runs ``claude_binary`` (the
stand-in in ``tests/bin/`` or the real CLI), and the rescan feeds the
ingestor the root's files.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cognition.act.attribution import ActiveExecutions
from cognition.loop import TickReport
from cognition.sense.classify import ObservationClassifier
from cognition.sense.ingest import Ingestor
from graph.models import new_id
from graph.settings import Settings, load_settings
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from scheduler.compose.loop import LoopRuntime, build_loop, load_action_templates
from scheduler.index_sync import IndexSync

EMPTY = Path(__file__).resolve().parent / "empty.yaml"


def loop_settings(root: Path, claude_binary: Path, **overrides: Any) -> Settings:
    """Settings for a loop on ``root``: rules decide, ``claude_binary`` acts; ``overrides`` win."""
    base: dict[str, Any] = {
        "watch.root": str(root),
        "reasoner": "rules",
        "executors.claude_binary": str(claude_binary),
        "llm.base_url": "http://127.0.0.1:9/v1",  # nothing listens there
        "llm.timeout_s": 2.0,
        # A test ticks right after its change: no burst to wait for unless it sets one.
        "schedule.burst_settle_s": 0.0,
    }
    base.update(overrides)
    return load_settings(EMPTY, environ={}, overrides=base)


@dataclass
class LoopRig:
    """The loop's parts on a temporary root, with what the tests do to it."""

    root: Path
    memory: Memory
    ingestor: Ingestor
    index_sync: IndexSync
    runtime: LoopRuntime

    async def observe(self) -> None:
        """Rescan the root and store what it found."""
        await self.index_sync.run()
        await self.ingestor.flush()

    async def tick_and_act(self, timeout_s: float = 120) -> TickReport:
        """One tick, then every action it started, to the end."""
        report = await self.runtime.loop.tick()
        assert await self.runtime.loop.idle(timeout_s), "the actions did not end"
        return report


@asynccontextmanager
async def loop_rig(
    settings: Settings, memory: Memory, root: Path, env: Mapping[str, str], *, grace_s: float
) -> AsyncIterator[LoopRig]:
    """The loop for ``memory``'s agent on ``root``; stopped and closed on the way out.

    ``env`` is the executor's environment; ``grace_s`` how long after an
    execution ends a file change is still attributed to it.
    """
    settings.agent_id = memory.agent_id
    attribution = ActiveExecutions(grace_s=grace_s)
    ingestor = Ingestor(
        memory, ObservationClassifier(settings.sense), attribute=attribution.attribute
    )
    index_sync = IndexSync(
        root, memory, ingestor, PathFilter(settings.watch.ignore_patterns), max_hash_bytes=1 << 20
    )
    async with AsyncExitStack() as stack:
        runtime = await build_loop(
            stack,
            settings,
            memory,
            root,
            index_sync,
            env,
            session_id=new_id(),
            templates=load_action_templates(settings),
            attribution=attribution,
        )
        # The loop's stop (its actions cancelled at once) before the episode's end and the
        # LLM client's close, which the stack runs on the way out.
        stack.push_async_callback(runtime.loop.stop, 0.0)
        yield LoopRig(root, memory, ingestor, index_sync, runtime)
