"""The crystalliser's three questions (seed 003 C3, C4, C6), as user messages.

Trajectories hold model output and practice problems, so they are fenced as
data; so are the principle under judgement and the heuristics it is compared
with. Each question asks for one small JSON object.
"""

from __future__ import annotations

from collections.abc import Sequence

from cognition.text import fence


def principle_prompt(domain: str, trajectories: Sequence[str]) -> str:
    """Ask for one principle shared by the successful attempts (temperature 0.5)."""
    listing = "\n\n".join(f"Attempt {n}:\n{t}" for n, t in enumerate(trajectories, 1))
    return (
        f"These are successful practice attempts in the domain '{domain}'.\n\n"
        f"{fence(listing, 'successful practice attempts')}\n\n"
        "What one principle made these attempts succeed? State it as a single specific, "
        "actionable instruction (what to do, and when), in one sentence of at most 40 words. "
        "Do not restate a problem.\n\n"
        'Reply with one JSON object: {"principle": "<the instruction>"}'
    )


def actionable_prompt(principle: str) -> str:
    """Seed 003 C6: is the principle specific and actionable? YES or NO."""
    return (
        f"{fence(principle, 'a proposed heuristic')}\n\n"
        "Is this heuristic specific and actionable? It is actionable if it tells you WHAT "
        "TO DO, not just what to think about.\n"
        'Good: "When debugging async code, add logging before and after each await"\n'
        'Bad: "Think carefully about async code"\n\n'
        'Reply with one JSON object: {"answer": "YES" | "NO"}'
    )


def duplicate_prompt(principle: str, existing: Sequence[str]) -> str:
    """Seed 003 C4's fallback: is the new heuristic the same as one already held?"""
    listing = "\n".join(f"{n}. {text}" for n, text in enumerate(existing, 1))
    return (
        f"{fence(principle, 'a new heuristic')}\n\n"
        f"{fence(listing, 'existing heuristics, numbered')}\n\n"
        "Is the new heuristic essentially the same as one of the existing ones?\n"
        'Reply with one JSON object: {"answer": "YES" | "NO", "same_as": <the number of '
        "the existing heuristic it repeats, or 0>}"
    )
