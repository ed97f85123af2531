"""A frame's token budget split by section, in the order the context is assembled.

Recall reads within these budgets and :mod:`cognition.context.render` writes
within them. The sections, in seed 004's assembly order with seed 000's
decision sections placed where they belong: identity, censors, frame,
working memory, observations with the file's content, goals, past
decisions, pattern statistics, available actions, facts, procedures,
episodes, lessons.

Budgets are tokens, estimated as characters / 4. :func:`section_budgets`
maps the frame's :class:`ContextBudget` onto the sections:

* identity, censors, frame, working memory, facts and procedures take the
  field of the same name; past decisions take ``decisions``; episodes and
  lessons and memories similar by meaning share ``episodes`` (50 % / 30 % /
  20 %: all are what past work taught).
* Sections seed 004's budget lacks take a fixed share of ``total``:
  observations 15 %, templates 4 %, goals 3 %, pattern statistics 3 %.
* Identity and censors are never scaled. When the fixed shares do not fit in
  what ``total`` leaves over (seed 004's budgets often add up to ``total``),
  the other seed sections are scaled down by one common factor so that the
  whole never exceeds ``total`` (the fixed shares themselves shrink only if
  identity and censors leave less than they need). A section whose seed
  field is 0 stays 0.
"""

from __future__ import annotations

from graph.models.frame import ContextBudget

SECTION_ORDER = (
    "identity",
    "censors",
    "frame",
    "working_memory",
    "observations",
    "goals",
    "decisions",
    "patterns",
    "templates",
    "facts",
    "procedures",
    "episodes",
    "lessons",
    "similar",
)

FIXED_SHARES = {
    "observations": 0.15,
    "templates": 0.04,
    "goals": 0.03,
    "patterns": 0.03,
}
_EPISODE_SHARE = 0.5  # of the "episodes" field
_SIMILAR_SHARE = 0.2  # of the "episodes" field: recall by meaning; lessons get the rest


def section_budgets(budget: ContextBudget) -> dict[str, int]:
    """Each section's token budget under ``budget``, in assembly order (see the module doc)."""
    total = budget.total
    free = max(total - budget.identity - budget.censors, 0)
    shares = sum(FIXED_SHARES.values())
    # Only when identity and censors leave too little are the fixed shares cut too.
    scale = min(1.0, free / (total * shares)) if total else 0.0
    fixed = {name: int(total * share * scale) for name, share in FIXED_SHARES.items()}
    seed = {
        "frame": budget.frame,
        "working_memory": budget.working_memory,
        "decisions": budget.decisions,
        "facts": budget.facts,
        "procedures": budget.procedures,
        "episodes": budget.episodes,
    }
    room = total - sum(fixed.values()) - budget.identity - budget.censors
    wanted = sum(seed.values())
    factor = 1.0 if wanted <= room else max(room, 0) / wanted
    scaled = {name: int(value * factor) for name, value in seed.items()}
    episodes = scaled.pop("episodes")
    out = {
        "identity": budget.identity,
        "censors": budget.censors,
        **scaled,
        **fixed,
        "episodes": int(episodes * _EPISODE_SHARE),
        "lessons": episodes - int(episodes * _EPISODE_SHARE) - int(episodes * _SIMILAR_SHARE),
        "similar": int(episodes * _SIMILAR_SHARE),
    }
    return {name: out[name] for name in SECTION_ORDER}
