"""Advisory numbers out of range are clamped and noted, not a reason to ask again.

A grammar-constrained local model keeps strings and lists in shape but not
numbers: it sends ``pattern_confidence: -0.2`` or ``likelihood_of_success:
150`` as readily as good ones. Those numbers only advise the thresholds
(the confidence is the adjuster's, the decision the thresholds'), so a
value outside its range is brought to the nearest bound and the step
records what was changed; failing the whole reply would cost a second
request (thousands of prompt tokens on a slow model) for nothing.

What is not a number at all (``"often"``, ``NaN``) still fails validation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Bound:
    """The range of one advisory number; ``percent_ok`` reads 85 as 0.85 for a probability."""

    low: float
    high: float
    percent_ok: bool = False


def number(value: object) -> float | None:
    """``value`` as a finite float (``"80%"`` → 80.0), or ``None`` when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip().rstrip("%").strip()
        try:
            value = float(text)
        except ValueError:
            return None
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


def clamp_fields(
    data: dict[str, Any], bounds: dict[str, Bound], notes: list[str], prefix: str = ""
) -> dict[str, Any]:
    """A copy of ``data`` with each bounded number inside its range; each change noted.

    A probability given as a percentage (``85``) is read as ``0.85`` first,
    which is a reading, not a clamp, and is not noted.
    """
    clamped = dict(data)
    for key, bound in bounds.items():
        value = number(clamped.get(key))
        if value is None:
            continue  # absent, null or not a number: validation decides
        if bound.percent_ok and bound.high < value <= 100:
            value = value / 100
        if value < bound.low or value > bound.high:
            inside = min(max(value, bound.low), bound.high)
            notes.append(f"{prefix}{key} {value:g} clamped to {inside:g}")
            value = inside
        clamped[key] = value
    return clamped
