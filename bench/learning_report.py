"""The learning bench's tables: per-block tallies of both runs and the two targets' ratios."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bench.common import verdict
from bench.learning_runner import BAD, GOOD, Item, Tally

if TYPE_CHECKING:
    from bench.learning import Arms

FAILED_TARGET = 0.20
GOOD_ACTIONS_TARGET = 0.90
TAIL = 100


def progress(arms: Arms, total_count: int, every: int = 10) -> None:
    """A line every ``every`` observations, so a run with a slow model can be followed."""
    done = len(arms.nous)
    if done % every and done != total_count:
        return
    for run, tallies in (("Nous", arms.nous), ("baseline", arms.base)):
        summed = total(tallies)
        if summed is None:
            continue  # the baseline's window has not begun
        print(
            f"  {done}/{total_count} {run}: {summed.actions} actions ({summed.failed} failed), "
            f"{summed.escalations} escalations, {summed.by_model} decided by the model",
            flush=True,
        )


def total(tallies: Sequence[Tally | None]) -> Tally | None:
    """The tallies summed, those not run left out; ``None`` when none ran."""
    ran = [tally for tally in tallies if tally is not None]
    if not ran:
        return None
    summed = Tally()
    for tally in ran:
        summed.add(tally)
    return summed


def blocks(tallies: Sequence[Tally | None], size: int) -> list[Tally | None]:
    """The tallies summed per block of ``size`` observations (``None``: none ran)."""
    return [total(tallies[start : start + size]) for start in range(0, len(tallies), size)]


def table(
    items: Sequence[Item], nous: Sequence[Tally], base: Sequence[Tally | None], size: int
) -> None:
    """Print the per-block table of both runs and how many decisions the model made."""
    print(
        "| block | run | actions | failed | escalations | waits | investigations "
        "| actions on notes (good) | actions on reports (bad) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for i, (ours, theirs) in enumerate(zip(blocks(nous, size), blocks(base, size), strict=True)):
        span = f"{i * size + 1}-{min((i + 1) * size, len(items))}"
        # A block the baseline's window starts inside says which of its observations it ran.
        first, last = i * size, min((i + 1) * size, len(base))
        decided = [j + 1 for j in range(first, last) if base[j] is not None]
        whole = len(decided) == last - first
        baseline = "baseline" if whole or not decided else f"baseline ({decided[0]}-{decided[-1]})"
        for label, t in (("Nous", ours), (baseline, theirs)):
            if t is None:
                print(f"| {span} | {label} | not run |" + " |" * 6)
                continue
            print(
                f"| {span} | {label} | {t.actions} | {t.failed} | {t.escalations} | {t.waits} "
                f"| {t.investigations} | {t.actions_by_folder[GOOD]} | {t.actions_by_folder[BAD]} |"
            )
    ran = [t for t in base if t is not None]
    print(
        f"decided by the model (else the rules, its fallback): Nous "
        f"{sum(t.by_model for t in nous)} of {len(nous)}, baseline "
        f"{sum(t.by_model for t in ran)} of {len(ran)}"
    )


def report(
    items: Sequence[Item], nous: Sequence[Tally], base: Sequence[Tally | None], size: int
) -> bool:
    """Print the per-block table and the two ratios; whether both targets are met."""
    table(items, nous, base, size)
    tail_nous, tail_base = total(nous[-TAIL:]), total(base[-TAIL:])
    if tail_nous is None or tail_base is None or None in base[-TAIL:]:
        raise ValueError(f"both runs must have decided the last {TAIL} observations")
    good_in_tail = sum(1 for item in items[-TAIL:] if item.folder == GOOD)
    failed_ratio = tail_nous.failed / tail_base.failed if tail_base.failed else float("inf")
    good_ratio = (
        tail_nous.actions_by_folder[GOOD] / tail_base.actions_by_folder[GOOD]
        if tail_base.actions_by_folder[GOOD]
        else float("inf")
    )
    print(
        f"last {TAIL}: {good_in_tail} notes, {TAIL - good_in_tail} reports; failed actions "
        f"Nous {tail_nous.failed}, baseline {tail_base.failed}; actions on notes "
        f"Nous {tail_nous.actions_by_folder[GOOD]}, baseline {tail_base.actions_by_folder[GOOD]}"
    )
    checks = [
        (
            failed_ratio <= FAILED_TARGET,
            f"failed actions, last {TAIL}: {failed_ratio:.2f}x the baseline "
            f"(target <= {FAILED_TARGET:.2f})",
        ),
        (
            good_ratio >= GOOD_ACTIONS_TARGET,
            f"actions on the good folder, last {TAIL}: {good_ratio:.2f}x the baseline "
            f"(target >= {GOOD_ACTIONS_TARGET:.2f})",
        ),
    ]
    for ok, text in checks:
        print(f"{verdict(ok)}  {text}")
    return all(ok for ok, _ in checks)
