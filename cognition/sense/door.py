"""The one door of what memory takes in: secrets out, sizes capped, provenance kept.

Every source of memory (:mod:`graph.intake`: files' changes, Claude Code's
prompts, tool calls and replies, transcripts, commits, ``remember``) hands its
record to :func:`admit` before anything of it is stored or thought about.
:func:`admit` walks the record's fields (strings, and the strings inside
mappings and lists, keys included), replaces every secret and ``<private>``
span by its marker (:mod:`cognition.sense.secrets`) and cuts each string to
its field's limit (the record's ``LIMITS``). Provenance is the record's own
and is kept as it came, but for ``who`` (filtered like any text). What
comes out is :class:`graph.intake.Admitted`, the only form the stores that
write intake accept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from cognition.sense.secrets import redact
from cognition.text import clip
from graph.intake import Admitted, R

_TAIL_FIELDS = frozenset({"output", "error"})
"""Fields whose end says most (process output): a cut keeps their head and tail."""
_SCAN_MARGIN = 4096
"""Characters scanned past a field's limit, so a secret cut in two by the limit is still found."""


class _Cleaning:
    """One record's cleaning: the kinds of secret found and the fields cut."""

    def __init__(self) -> None:
        self.secrets: list[str] = []
        self.clipped: list[str] = []

    def text(self, value: str, name: str, limit: int | None) -> str:
        """``value`` with its secrets replaced, cut to ``limit``."""
        tail = name in _TAIL_FIELDS
        if limit is not None and len(value) > limit + _SCAN_MARGIN:
            value = clip(value, limit + _SCAN_MARGIN, keep_tail=tail)
        redacted = redact(value)
        self.secrets.extend(redacted.kinds)
        value = redacted.text
        if limit is not None and len(value) > limit:
            self.clipped.append(name)
            value = clip(value, limit, keep_tail=tail)
        return value

    def value(self, value: Any, name: str, limit: int | None) -> Any:
        """Any value of a record: strings cleaned wherever they are; numbers and the rest kept."""
        if isinstance(value, str):
            return self.text(value, name, limit)
        if isinstance(value, Mapping):
            return {
                self.text(str(k), name, limit): self.value(v, name, limit) for k, v in value.items()
            }
        if isinstance(value, list | tuple):
            cleaned = [self.value(v, name, limit) for v in value]
            return tuple(cleaned) if isinstance(value, tuple) else cleaned
        return value


def admit(record: R) -> Admitted[R]:
    """``record`` as memory may keep it: secrets replaced by markers, each field within its limit.

    The same record always comes out the same, so what is derived from it
    (a tool call's key, a commit's text) matches wherever it is computed.
    """
    cleaning = _Cleaning()
    changed: dict[str, Any] = {}
    for item in fields(record):
        value = getattr(record, item.name)
        if item.name == "provenance":
            who = value.who
            clean = None if who is None else cleaning.text(who, "who", 200)
            cleaned: Any = value if clean == who else replace(value, who=clean)
        else:
            cleaned = cleaning.value(value, item.name, record.LIMITS.get(item.name))
        if cleaned != value:
            changed[item.name] = cleaned
    admitted = replace(record, **changed) if changed else record
    return Admitted(
        admitted,
        secrets=tuple(dict.fromkeys(cleaning.secrets)),
        clipped=tuple(dict.fromkeys(cleaning.clipped)),
    )
