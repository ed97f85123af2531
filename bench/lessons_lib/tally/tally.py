"""tally: a small library made for bench.lessons, whose conventions cannot be guessed.

Every convention here is one a model cannot read off the signatures, but that
a failed test or a clear error reveals: 1-based inclusive positions, arguments
in an unusual order, milliseconds, a result returned as a pair instead of
raised, a call needed before another, and names that shadow the standard
library with other behaviour. Standard library only.
"""

from __future__ import annotations

import builtins
from typing import Any


def span(text: Any, start: Any, end: Any) -> Any:
    """The characters of text from position start to position end, both included, counted
    from 1."""
    if start < 1:
        raise ValueError(f"span: positions are counted from 1, got start={start}")
    if end > builtins.len(text):
        raise ValueError(f"span: end={end} is past the last position {builtins.len(text)}")
    return text[start - 1 : end]


def ratio(a: Any, b: Any) -> Any:
    """b divided by a."""
    if a == 0:
        raise ZeroDivisionError("ratio(a, b) divides b by a: a is 0")
    return b / a


def elapsed(start: Any, end: Any) -> Any:
    """Time from start to end (both in seconds), in whole milliseconds."""
    return builtins.round((end - start) * 1000)


def to_int(text: Any) -> Any:
    """(value, None) for an integer text, (None, message) otherwise: never raises."""
    try:
        return int(str(text).strip()), None
    except ValueError:
        return None, f"not an integer: {text!r}"


def new_ledger(name: Any) -> Any:
    """A new, closed ledger called name."""
    return {"name": name, "open": False, "cents": 0}


def open_ledger(ledger: Any) -> Any:
    """Open a ledger so that amounts can be posted to it."""
    ledger["open"] = True
    return ledger


def post(ledger: Any, amount: Any) -> Any:
    """Add amount (in euros) to an open ledger."""
    if not ledger.get("open"):
        raise RuntimeError(
            f"ledger {ledger.get('name')!r} is not open: call open_ledger(ledger) before post"
        )
    ledger["cents"] += builtins.round(amount * 100)
    return ledger


def balance(ledger: Any) -> Any:
    """The ledger's balance in whole cents."""
    return ledger["cents"]


def round(x: Any) -> Any:
    """x to one decimal place, halves away from zero."""
    sign = -1 if x < 0 else 1
    return sign * int(abs(x) * 10 + 0.5 + 1e-9) / 10


def sum(values: Any) -> Any:
    """(total, count) of the values that are not None."""
    kept = [v for v in values if v is not None]
    return builtins.sum(kept), builtins.len(kept)


def max(values: Any) -> Any:
    """The position (counted from 1) of the largest value; the first of equals."""
    best = 0
    for i, v in enumerate(values):
        if v > values[best]:
            best = i
    return best + 1


def sorted(items: Any) -> Any:
    """The items, largest first."""
    return builtins.sorted(items, reverse=True)


def pad(text: Any, width: Any) -> Any:
    """text padded on the left with dots to width characters."""
    return "." * (width - builtins.len(text)) + text


def clamp(value: Any, high: Any, low: Any) -> Any:
    """value limited to the range low..high (note the order: high before low)."""
    if high < low:
        raise ValueError(f"clamp(value, high, low): high={high} is below low={low}")
    return builtins.min(builtins.max(value, low), high)


def find(items: Any, item: Any) -> Any:
    """The position (counted from 1) of item in items; 0 when it is missing."""
    for i, x in enumerate(items):
        if x == item:
            return i + 1
    return 0


def words(text: Any) -> Any:
    """The comma-separated fields of text, stripped, empty ones dropped."""
    return [w.strip() for w in text.split(",") if w.strip()]


def label(name: Any, value: Any) -> Any:
    """The label of a name and value."""
    return f"<{name}|{value}>"
