"""Strategies for the transfer benchmark when no agent has learned any yet.

``python -m bench.transfer --practice-cycles N`` gives a fresh bench agent
``N`` real RSI cycles with the configured model (:func:`practice_cycles`):
its reflection, its own practice (a bootstrap desire when reflection
verifies nothing), its failures, crystallization, the candidates' trials and
pruning, exactly as the daemon's cycles are built (``scheduler.compose``).

``--bootstrap-practice N`` is the older shortcut: ``N`` successful code
trajectories from canonical solutions, crystallized, the candidates
trialled. Either way the agent is forgotten afterwards.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cognition.llm import LLMClient
from graph.models import Heuristic, HeuristicStatus, RSICycle, Trajectory, new_id
from graph.settings import Settings
from graph.store.mapping import to_properties
from graph.store.memory import Memory
from graph.store.rows.rsi import HeuristicWithTrials
from rsi.crystallize import Crystallizer
from rsi.problems import held_out, practice_pool
from rsi.trial import HeuristicTrials
from scheduler.improvement import build_self_improvement

ATTEMPTS = 3  # a principle the model itself judges vague is refused; ask again


def practice_trajectories(
    agent_id: str, count: int, held: frozenset[str] = frozenset()
) -> list[Trajectory]:
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
        for n, p in enumerate(practice_pool(held)[:count])
    ]


async def bootstrap_strategies(
    memory: Memory, llm: LLMClient, settings: Settings, count: int
) -> list[Heuristic]:
    """Crystallize heuristics for ``memory``'s agent from ``count`` practice trajectories."""
    held = held_out(settings.rsi.held_out_problems)
    rows = [to_properties(t) for t in practice_trajectories(memory.agent_id, count, held)]
    await memory.write("bench/practice_trajectories", rows=rows)
    store = memory.heuristics
    crystallizer = Crystallizer(store, memory.events, llm, settings.rsi)
    for _ in range(ATTEMPTS):
        report = await crystallizer.run("code", cycle_id=new_id())
        if report.crystallized or not report.results:
            break
    trials = HeuristicTrials(store, memory.events, llm, settings.rsi)
    await trials.run(limit=len(await store.with_status(HeuristicStatus.CANDIDATE)))
    return await store.active()


@dataclass
class Practice:
    """What ``N`` real cycles did: each cycle, every heuristic, and each one's trials."""

    cycles: list[RSICycle] = field(default_factory=list)
    heuristics: list[HeuristicWithTrials] = field(default_factory=list)
    active: list[Heuristic] = field(default_factory=list)


async def practice_cycles(
    memory: Memory, llm: LLMClient, settings: Settings, count: int, root: Path
) -> Practice:
    """Run ``count`` RSI cycles for ``memory``'s agent, as the daemon builds them."""
    parts = await build_self_improvement(
        settings.rsi, memory, llm, root, chat_model=settings.llm.model, cases=settings.cases
    )
    done = Practice()
    for n in range(count):
        cycle = await parts.engine.run_cycle(seed=n)
        done.cycles.append(cycle)
        print(f"cycle {n + 1}/{count}: {cycle_line(cycle)}", file=sys.stderr, flush=True)
    # Pruning as the daemon's nightly job runs it (on so young a set, it rarely retires one).
    await parts.pruner.run()
    store = memory.heuristics
    done.heuristics = await store.with_trials()
    done.active = await store.active()
    return done


def cycle_line(c: RSICycle) -> str:
    """One cycle in a line: what it practiced, how it went, what it learned, or why not."""
    practiced = (
        f"practiced {c.domain} ({c.practice_origin}), {c.succeeded}/{c.practiced} succeeded"
        if c.practiced
        else f"did not practice: {c.skipped or c.error or 'unknown'}"
    )
    return (
        f"{c.processed} desires ({c.accepted} verified); {practiced}; "
        f"crystallized {c.crystallized}, trials {c.trials} "
        f"({c.activated} active, {c.rejected_heuristics} rejected)"
        + (f"; error: {c.error}" if c.error else "")
    )


def format_practice(practice: Practice) -> str:
    """What the practice cycles did and learned: each cycle, each heuristic with its trials."""
    practiced = sum(1 for c in practice.cycles if c.practiced)
    lines = [f"practice: {len(practice.cycles)} RSI cycles, {practiced} practiced"]
    lines += [f"  cycle {n}: {cycle_line(c)}" for n, c in enumerate(practice.cycles, 1)]
    lines.append(f"learned: {len(practice.heuristics)} heuristics")
    for row in practice.heuristics:
        h = row.heuristic
        lines.append(f"  [{h.status}] {h.domain}: {h.content}")
        lines.append(f"    used {h.usage_count}, helpful {h.helpful}, harmful {h.harmful}")
        lines += [f"    trial {t.id}: {t.reason}" for t in row.trials]
    return "\n".join(lines)
