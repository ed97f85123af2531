"""Pruning the case bank (issue 25): cases earn their place as heuristics do.

:func:`choose_case_prunes` is pure. In order:

1. **harmful**: ``harmful`` exceeds ``helpful`` by ``cases.prune_harm_margin``
   or more (an example that misleads more often than it helps);
2. **unused**: older than ``cases.prune_min_age_days`` and never shown;
3. **duplicate**: a case whose task repeats a kept one's (word overlap both
   ways at ``cases.duplicate_similarity``) is merged into it, the one with
   more net credit kept (the older on a tie);
4. **over_cap**: while more than ``cases.max_cases`` remain, the least
   valuable go: net credit, then uses, the older first.

Retired cases keep their node (status ``retired``, when and why); merged ones
are ``MERGED_INTO`` the case kept, which adds their credit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from cognition.cases import CaseBank, word_similarity
from graph.models import Case
from graph.settings import CaseSettings
from graph.settings_lean import HookCases

SECONDS_PER_DAY = 86400.0


@dataclass
class CasePrunes:
    """What to do to the bank: cases to retire (id, reason) and merges (kept id, duplicate id)."""

    retire: list[tuple[str, str]] = field(default_factory=list)
    merge: list[tuple[str, str]] = field(default_factory=list)


def _value(case: Case) -> tuple[int, int, float]:
    return (case.helpful - case.harmful, case.uses, case.at.timestamp())


def choose_case_prunes(
    cases: Sequence[Case], settings: CaseSettings | HookCases, now: datetime
) -> CasePrunes:
    """The active cases to retire or merge now (pure: no I/O)."""
    chosen = CasePrunes()
    kept: list[Case] = []
    for case in sorted(cases, key=lambda c: (c.at, c.id)):
        age = max((now - case.at).total_seconds() / SECONDS_PER_DAY, 0.0)
        if case.harmful - case.helpful >= settings.prune_harm_margin:
            chosen.retire.append((case.id, "harmful"))
        elif case.uses == 0 and age > settings.prune_min_age_days:
            chosen.retire.append((case.id, "unused"))
        else:
            kept.append(case)
    floor = settings.duplicate_similarity
    survivors: list[Case] = []
    for case in kept:
        twin = next(
            (
                k
                for k in survivors
                if k.domain == case.domain
                and word_similarity(case.task, k.task) >= floor
                and word_similarity(k.task, case.task) >= floor
            ),
            None,
        )
        if twin is None:
            survivors.append(case)
            continue
        keep, drop = (twin, case) if _value(twin)[:2] >= _value(case)[:2] else (case, twin)
        chosen.merge.append((keep.id, drop.id))
        survivors[survivors.index(twin)] = keep
    excess = len(survivors) - settings.max_cases
    if excess > 0:
        for case in sorted(survivors, key=lambda c: (_value(c), c.id))[:excess]:
            chosen.retire.append((case.id, "over_cap"))
    return chosen


async def prune_cases(bank: CaseBank, now: datetime) -> CasePrunes:
    """Apply :func:`choose_case_prunes` to the bank; return what was decided."""
    active = [c for c, _ in await bank.store.active()]
    chosen = choose_case_prunes(active, bank.settings, now)
    await bank.store.retire(chosen.retire)
    for keep, drop in chosen.merge:
        await bank.store.merge(keep, drop)
    return chosen
