"""Difficulty per agent and domain (seed 003 T2), read back from the stored trajectories.

Every trajectory records the difficulty it was practiced at and whether it
succeeded, so the current level is derived from the graph rather than kept in
the daemon: three successes in a row at a level move up, two failures in a
row move down.
"""

from __future__ import annotations

from collections.abc import Sequence

from graph.models import Trajectory

LEVELS = ("beginner", "intermediate", "advanced")
UP_AFTER = 3
DOWN_AFTER = 2
# Enough history to see the longest streak that matters.
HISTORY = max(UP_AFTER, DOWN_AFTER)


def current_level(newest_first: Sequence[Trajectory]) -> str:
    """The level for the next practice, from the latest trajectories of one domain."""
    if not newest_first:
        return LEVELS[0]
    level = newest_first[0].difficulty if newest_first[0].difficulty in LEVELS else LEVELS[0]
    streak = 0
    outcome = newest_first[0].success
    for trajectory in newest_first:
        if trajectory.difficulty != level or trajectory.success != outcome:
            break
        streak += 1
    index = LEVELS.index(level)
    if outcome and streak >= UP_AFTER:
        index = min(index + 1, len(LEVELS) - 1)
    elif not outcome and streak >= DOWN_AFTER:
        index = max(index - 1, 0)
    return LEVELS[index]
