"""How the step replies read a model's harmless slips (:mod:`cognition.deliberate.replies`).

Each ``as_*`` function is a pydantic ``BeforeValidator``: it turns what a
model commonly sends instead of the asked-for shape into that shape (case and
spaces in enums, ``"none"`` for no template, a string where a list was asked,
a percentage for a probability) and leaves anything else for validation to
refuse. Text is made plain and cut to length, lists to ``LIST_LIMIT`` items.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from cognition.text import plain_text
from graph.models import DecisionType

TEXT_LIMIT = 500
LIST_LIMIT = 10
_NONE_WORDS = frozenset({"", "none", "null", "n/a", "na", "unknown", "no template"})
_SYNONYMS = {"moderate": "medium", "normal": "medium", "minor": "low", "major": "high"}


def as_word(value: object) -> object:
    """An enum word: ``"High"``, ``" act "``, ``"ACT - execute now"`` read as ``high``, ``act``."""
    if not isinstance(value, str):
        return value
    lowered = value.strip().lower()
    match = re.match(r"[a-z_]+", lowered)
    word = match.group(0) if match else lowered
    return _SYNONYMS.get(word, word)


def as_yes_no(value: object) -> object:
    """``yes``/``no``/``maybe``, from a boolean or any case of the word."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    word = as_word(value)
    return {"true": "yes", "false": "no"}.get(word, word) if isinstance(word, str) else word


def as_intent(value: object) -> object:
    """``"New content"`` read as ``new_content``; an intent outside the list is ``unknown``."""
    if not isinstance(value, str):
        return value
    key = re.sub(r"[\s-]+", "_", value.strip().lower())
    return key if key in {"new_content", "update", "fix", "cleanup"} else "unknown"


def as_text(value: object) -> object:
    """Plain text of at most ``TEXT_LIMIT`` characters."""
    return plain_text(value, TEXT_LIMIT) if isinstance(value, str) else value


def as_optional_name(value: object) -> object:
    """A name, or ``None`` for ``"none"``, ``"n/a"`` and the like."""
    if value is None or (isinstance(value, str) and value.strip().lower() in _NONE_WORDS):
        return None
    return as_text(value)


def none_as(default: str) -> Any:
    """A validator reading ``null`` as ``default`` and anything else as text."""
    return lambda value: default if value is None else as_text(value)


def as_text_list(value: object) -> object:
    """A list of plain texts (a lone string becomes one item), at most ``LIST_LIMIT``."""
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return value
    items = [
        plain_text(str(v), TEXT_LIMIT)
        for v in value
        if isinstance(v, str | int | float) and str(v).strip()
    ]
    return items[:LIST_LIMIT]


def as_percent(value: object) -> object:
    """A percentage: ``"85 %"`` read as ``85``, ``"unknown"`` as ``None``."""
    if isinstance(value, str):
        text = value.strip().rstrip("%").strip()
        if text.lower() in _NONE_WORDS:
            return None
        return text
    return value


def as_probability(value: object) -> object:
    """A probability; a model asked for 0.0-1.0 sometimes answers 85 (meaning 85 %)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and 1 < value <= 100:
        return value / 100
    return value


def as_parameters(value: object) -> object:
    """Template parameters as ``[{"name", "value"}]`` pairs, from that list or a map."""
    # Only short scalar values, by name; the template's types check them again. A map
    # ({"name": "value"}) is taken as well as the list of pairs the strict schema asks for.
    if isinstance(value, dict):
        pairs: list[tuple[object, object]] = list(value.items())
    elif isinstance(value, list):
        pairs = [(p.get("name"), p.get("value")) for p in value if isinstance(p, dict)]
    else:
        return []
    return [
        {"name": str(k), "value": plain_text(str(v), TEXT_LIMIT)}
        for k, v in pairs[:LIST_LIMIT]
        if k and isinstance(v, str | int) and not isinstance(v, bool) and str(v).strip()
    ]


Text = Annotated[str, BeforeValidator(as_text)]
TextList = Annotated[list[str], BeforeValidator(as_text_list)]
Delta = Annotated[float, Field(allow_inf_nan=False)]
Significance = Annotated[Literal["low", "medium", "high", "critical"], BeforeValidator(as_word)]
Level = Annotated[Literal["low", "medium", "high"] | None, BeforeValidator(as_word)]
Option = Annotated[DecisionType, BeforeValidator(as_word)]
