"""Practice that happens: a bootstrap desire when reflection verified nothing (seed 003's origin).

A small model's reflection often writes vague wishes that the verifier
rightly rejects; without a desire nothing is practiced and nothing learned.
So a cycle with no verified desire waiting practices a ``bootstrap`` desire:
in the domain of ``rsi.bootstrap_domains`` where practice is weakest (no
trajectories yet, else the lowest recent success rate, the first listed on a
tie), on a problem drawn from the practice pool (never the held-out split),
at the domain's current difficulty and not practiced recently. Logic has no
pool: its bootstrap desire asks for a consistent answer to a question the
model writes, as any logic practice does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from graph.models import Desire, DesireStatus, Trajectory
from graph.settings import RSISettings
from graph.store.rsi import RSIStore
from rsi import problems
from rsi.difficulty import HISTORY, current_level
from rsi.practice import RECENT_PROBLEMS
from rsi.route import LOGIC

# How many of a domain's latest trajectories "weakest" is judged on.
STRENGTH_WINDOW = 10
LOGIC_DESCRIPTION = (
    "Practice logic reasoning: answer a reasoning question with the same short answer every time"
)


def weakest_domain(domains: Sequence[str], history: Mapping[str, Sequence[Trajectory]]) -> str:
    """The domain practiced least well: none yet first, then the lowest success rate."""

    def strength(item: tuple[int, str]) -> tuple[bool, float, int]:
        order, domain = item
        done = history.get(domain, ())
        rate = sum(t.success for t in done) / len(done) if done else 0.0
        return (bool(done), rate, order)

    return min(enumerate(domains), key=strength)[1]


def draw_problem(
    pool: Sequence[problems.Problem], level: str, recent: frozenset[str], seed: int
) -> problems.Problem | None:
    """A pool problem at ``level`` not practiced recently (any level when none is left)."""
    fresh = [p for p in pool if p.source not in recent]
    at_level = [p for p in fresh if p.difficulty == level] or fresh
    if not at_level:
        return None
    # A reproducible draw, not a secret: the seed is stored on the cycle.
    return random.Random(seed).choice(at_level)  # noqa: S311


def _summary(problem: problems.Problem) -> str:
    """The first line of the problem's docstring, for the desire's description."""
    inside = problem.spec.split('"""')[1] if '"""' in problem.spec else problem.spec
    lines = [line.strip() for line in inside.splitlines() if line.strip()]
    return lines[0] if lines else problem.entry_point


async def bootstrap_desire(store: RSIStore, settings: RSISettings, seed: int) -> Desire | None:
    """The desire to practice when none is verified; None when the pool is used up."""
    domains: list[str] = list(dict.fromkeys(settings.bootstrap_domains))
    history: dict[str, Sequence[Trajectory]] = {
        d: await store.recent_trajectories(d, STRENGTH_WINDOW) for d in domains
    }
    domain = weakest_domain(domains, history)
    common: dict[str, object] = {
        "agent_id": store.agent_id,
        "origin": "bootstrap",
        "status": DesireStatus.VERIFIED,
        "domain": domain,
        "routed_by": "bootstrap",
        "intensity": 0.5,
    }
    if domain == LOGIC:
        return Desire.model_validate({**common, "description": LOGIC_DESCRIPTION})
    level = current_level(history[domain][:HISTORY])
    recent = await store.recent_trajectories(None, RECENT_PROBLEMS)
    seen = frozenset(t.problem_source for t in recent)
    pool = problems.practice_pool(problems.held_out(settings.held_out_problems))
    problem = draw_problem(pool, level, seen, seed)
    if problem is None:
        return None
    description = f"Practice {domain}: {problem.entry_point}: {_summary(problem)}"[:300]
    return Desire.model_validate(
        {**common, "description": description, "problem_source": problem.source}
    )
