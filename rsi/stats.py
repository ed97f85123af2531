"""Small exact statistics, standard library only: heuristic trials and the benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb


@dataclass(frozen=True)
class McNemar:
    """The exact McNemar test of two paired pass/fail arms.

    ``only_a`` counts problems arm A passed and arm B failed, ``only_b`` the
    reverse; ``p_value`` is the two-sided exact binomial p under "neither arm
    is better" (1.0 when the arms never disagree).
    """

    only_a: int
    only_b: int
    p_value: float


def binomial_two_sided(k: int, n: int) -> float:
    """Two-sided exact p of ``k`` successes in ``n`` fair coin flips (1.0 for n = 0).

    Doubles the smaller tail, capped at 1, as the exact McNemar test does.
    """
    if n == 0:
        return 1.0
    low = min(k, n - k)
    tail: float = sum(comb(n, i) for i in range(low + 1)) / 2**n
    return min(1.0, 2 * tail)


def mcnemar_exact(a: Sequence[bool], b: Sequence[bool]) -> McNemar:
    """Compare arm ``a`` with arm ``b`` on the same problems, in the same order."""
    if len(a) != len(b):
        raise ValueError(f"paired arms differ in length: {len(a)} and {len(b)}")
    only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    return McNemar(only_a, only_b, binomial_two_sided(only_a, only_a + only_b))
