"""The decisions a prompt needs, quoted first with their source (issue 58).

Before everything else a prompt's context holds, the decisions in force
that bear on it: found by the prompt's words and by the code names and
files it names (as words: ``MAX_ATTEMPTS`` is "max attempts", so "the
attempt budget" finds it too) in the project's ``decision_words`` index;
a superseded decision found is replaced by the one in force, which says
what it replaced. Each is quoted as stated, with where and when: ``commit
3f2a1c0, 2026-10-02`` or ``agreed in a session on 2026-11-03``. At most
:data:`MAX_SHOWN`, those scoring at least :data:`RELATIVE_FLOOR` of the best
(or naming a code name the prompt names), within the budget given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cognition.decisions.subjects import code_names, files_in, subject_words
from cognition.text import estimate_tokens, fit_lines
from graph.store.team_decisions import StatedDecision, TeamDecisionStore

MAX_SHOWN = 3
RELATIVE_FLOOR = 0.45
"""A decision scoring under this share of the best one's score is another rule's."""
CANDIDATES = 12
HEADING = "## Decisions in force (quoted as stated, with their source)"


@dataclass(frozen=True)
class DecisionsAnswer:
    """The decisions shown as text ("" when none bears on the prompt), their ids, and the
    words of the decisions they superseded (what the rest of the context leaves out)."""

    text: str
    ids: tuple[str, ...]
    replaced: tuple[str, ...] = ()


class DecisionRecall:
    """Recalls a project's decisions in force for a prompt."""

    def __init__(self, store: TeamDecisionStore) -> None:
        self.store = store

    async def for_prompt(self, prompt: str, budget_tokens: int) -> DecisionsAnswer:
        """The decisions in force that bear on ``prompt``, best first, within ``budget_tokens``."""
        names = [*code_names(prompt), *files_in(prompt)]
        found = await self.store.for_prompt(
            [" ".join(names), subject_words(names), prompt], limit=CANDIDATES
        )
        chosen = choose(found, names)
        lines = fit_lines((render(d) for d in chosen), budget_tokens, used=estimate_tokens(HEADING))
        replaced = tuple(dict.fromkeys(t for d in found for t in d.replaced))
        if not lines:
            return DecisionsAnswer("", (), replaced)
        ids = tuple(d.id for d in chosen[: len(lines)])
        return DecisionsAnswer("\n".join([HEADING, *lines]), ids, replaced)


def choose(found: Sequence[StatedDecision], names: Sequence[str]) -> list[StatedDecision]:
    """The decisions to show: those about a code name the prompt names first (a file names
    too many rules to count), then by score, at least :data:`RELATIVE_FLOOR` of the best, at
    most :data:`MAX_SHOWN`."""
    if not found:
        return []
    wanted = {n.lower() for n in names}
    best = max(d.score for d in found)

    def named(d: StatedDecision) -> bool:
        return bool(wanted & {s.lower() for s in d.subjects})

    kept = [d for d in found if named(d) or d.score >= RELATIVE_FLOOR * best]
    kept.sort(key=lambda d: (not named(d), -d.score))
    return kept[:MAX_SHOWN]


def render(decision: StatedDecision) -> str:
    """``- "text" (commit 3f2a1c0, 2026-10-02; current, replaces the rule of 2026-09-01)``."""
    day = decision.valid_from[:10]
    if decision.source == "commit" and decision.sha:
        where = f"commit {decision.sha[:7]}, {day}"
    else:
        where = f"agreed in a session on {day}"
    if decision.replaces:
        where += f"; current, replaces the rule of {decision.replaces[:10]}"
    return f'- "{decision.text}" ({where})'
