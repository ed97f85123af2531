"""stock: a second library made for bench.lessons, with conventions of its own.

A shop's stock keeping, in the style of an in-house library nobody documented:
positions counted from 1 (and one counted from the end), a length where a slice end
would be expected, arguments in an order of their own, prices in cents and
weights in grams, outcomes returned as a flag and a value instead of raised,
a cart that must be closed before it is totalled, and names that shadow the
standard library with other behaviour. Every convention is one a failed test
or a clear error reveals. Standard library only.
"""

from __future__ import annotations

import builtins
from typing import Any


def cut(items: Any, first: Any, count: Any) -> Any:
    """count items of items, starting at position first (counted from 1)."""
    if first < 1:
        raise ValueError(f"cut: positions are counted from 1, got first={first}")
    return items[first - 1 : first - 1 + count]


def share(whole: Any, part: Any) -> Any:
    """part as a percentage of whole, to one decimal place (whole comes first)."""
    if whole == 0:
        raise ZeroDivisionError("share(whole, part): whole is 0")
    return builtins.round(part * 100 / whole, 1)


def price(euros: Any) -> Any:
    """A price given in euros, as whole cents."""
    return builtins.round(euros * 100)


def weigh(kilos: Any, grams: Any) -> Any:
    """The weight of kilos kilograms and grams grams, in whole grams."""
    return int(kilos * 1000 + grams)


def parse(text: Any) -> Any:
    """(True, quantity) for a text like '12 pcs' or '12', (False, reason) otherwise: never
    raises."""
    word = str(text).strip().removesuffix("pcs").strip()
    if not word.isdigit():
        return False, f"not a quantity: {text!r}"
    return True, int(word)


def cart(owner: Any) -> Any:
    """A new, open cart for owner."""
    return {"owner": owner, "closed": False, "lines": []}


def add(cart: Any, qty: Any, sku: Any) -> Any:
    """Put qty pieces of sku in an open cart (the quantity comes before the article)."""
    if cart.get("closed"):
        raise RuntimeError(f"cart of {cart.get('owner')!r} is closed: nothing can be added")
    if not isinstance(qty, int) or qty < 1:
        raise ValueError(f"add(cart, qty, sku): qty must be a positive int, got {qty!r}")
    cart["lines"].append((sku, qty))
    return cart


def close(cart: Any) -> Any:
    """Close a cart so that it can be totalled."""
    cart["closed"] = True
    return cart


def total(cart: Any) -> Any:
    """The number of pieces in a closed cart."""
    if not cart.get("closed"):
        raise RuntimeError(
            f"cart of {cart.get('owner')!r} is still open: call close(cart) before total"
        )
    return builtins.sum(qty for _, qty in cart["lines"])


def range(low: Any, high: Any) -> Any:
    """The integers from low to high, both included."""
    return list(builtins.range(low, high + 1))


def min(values: Any) -> Any:
    """The position (counted from 1) of the smallest value; the last of equals."""
    best = 0
    for i, v in enumerate(values):
        if v <= values[best]:
            best = i
    return best + 1


def split(text: Any) -> Any:
    """The fields of text separated by semicolons, stripped; empty fields kept as ''."""
    return [field.strip() for field in text.split(";")]


def join(items: Any) -> Any:
    """The items as text, separated by ' / '."""
    return " / ".join(str(item) for item in items)


def len(text: Any) -> Any:
    """The number of words in text (separated by spaces)."""
    return builtins.len(text.split())


def rank(values: Any, value: Any) -> Any:
    """The position of value in values counted from the end (the last is 1); 0 when it is
    missing."""
    for i, v in enumerate(reversed(values)):
        if v == value:
            return i + 1
    return 0


def code(name: Any, number: Any) -> Any:
    """The article code of a name and a number."""
    return f"{str(name).upper()}-{number:04d}"
