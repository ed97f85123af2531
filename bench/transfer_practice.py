"""Strategies for the transfer benchmark when no agent has learned any yet.

``python -m bench.transfer --bootstrap-practice N`` gives a fresh bench agent
``N`` successful code trajectories (HumanEval problems outside the held-out
split, solved by their canonical solutions, as part 1's practice would store
them), lets the crystalliser distil heuristics from them with the configured
model, and measures with those. The agent is forgotten afterwards.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cognition.llm import LLMClient
from graph.models import Heuristic, Trajectory, new_id
from graph.settings import Settings
from graph.store.heuristics import HeuristicStore
from graph.store.learning import LearningStore
from graph.store.mapping import to_properties
from graph.store.memory import Memory
from rsi.crystallize import Crystallizer
from rsi.problems import practice_pool

ATTEMPTS = 3  # a principle the model itself judges vague is refused; ask again


def practice_trajectories(agent_id: str, count: int) -> list[Trajectory]:
    """``count`` successful code trajectories from practice problems (never the held-out ones)."""
    start = datetime.now(UTC) - timedelta(hours=1)
    return [
        Trajectory(
            agent_id=agent_id,
            at=start + timedelta(seconds=n),
            domain="code",
            problem=p.spec,
            solution=p.canonical_solution,
            approach="solved against the problem's tests",
            success=True,
            partial_score=1.0,
        )
        for n, p in enumerate(practice_pool()[:count])
    ]


async def bootstrap_strategies(
    memory: Memory, llm: LLMClient, settings: Settings, count: int
) -> list[Heuristic]:
    """Crystallise heuristics for ``memory``'s agent from ``count`` practice trajectories."""
    rows = [to_properties(t) for t in practice_trajectories(memory.agent_id, count)]
    await memory.write("bench/practice_trajectories", rows=rows)
    store = HeuristicStore(memory)
    crystallizer = Crystallizer(store, LearningStore(memory), llm, settings.rsi)
    for _ in range(ATTEMPTS):
        report = await crystallizer.run("code", cycle_id=new_id())
        if report.crystallized or not report.results:
            break
    return await store.active()
