"""What ``nous mcp``'s tools send back: text a model reads well, fenced, within a size limit.

Every answer is a short heading Nous wrote, then what memory holds, fenced
by :func:`cognition.text.fence` (stored text may be anything: a file's
content, a model's reply, a prompt in disguise), then an optional note.
Control characters are dropped from the memory's text (text made only of
them shows as an empty block, not as nothing); when the whole would
pass ``mcp.max_answer_chars`` the memory's text is cut and the cut says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cognition.text import fence, plain_text
from graph.models import Censor
from graph.store.rows.audit import GoalListed, OpenEscalation

CUT_NOTE = "[… {omitted:,} more characters not shown: answers are limited to {limit:,} characters]"
ITEM_CHARS = 300  # one listed item's text; the listing is for finding, `why` tells the whole


def answer(heading: str, body: str, *, label: str, limit: int, note: str = "") -> str:
    """``heading``, then ``body`` fenced as data (``label``), then ``note``: at most ``limit``."""
    # Heading and note are Nous's words around the data; a quarter of the answer each at most.
    heading = plain_text(heading, limit // 4, single_line=False)
    raw, body = body, plain_text(body, single_line=False)
    if not body and raw.strip():
        # Memory held text, all of it escape sequences or control characters (``ESC [ ` ``
        # is one whole sequence): an empty block says so where "(nothing)" would not.
        body = "\n"
    note = plain_text(note, limit // 4, single_line=False)
    full = _compose(heading, body, label, note)
    if len(full) <= limit:
        return full
    keep = len(body)
    # The fence and the cut note have a fixed cost; shrink the body until the whole fits.
    while keep > 0:
        overflow = len(_compose(heading, _cut(body, keep, limit), label, note)) - limit
        if overflow <= 0:
            break
        keep = max(0, keep - overflow)
    return _compose(heading, _cut(body, keep, limit), label, note)[:limit]


def _cut(body: str, keep: int, limit: int) -> str:
    head = body[:keep].rstrip()
    return f"{head}\n{CUT_NOTE.format(omitted=len(body) - len(head), limit=limit)}"


def _compose(heading: str, body: str, label: str, note: str) -> str:
    parts = [heading, fence(body, label) if body else "(nothing)"]
    if note:
        parts.append(note)
    return "\n".join(parts)


def quoted(value: str, label: str) -> str:
    """A client's value echoed in an error, fenced as data (it may be a hostile file's name)."""
    return fence(plain_text(value, ITEM_CHARS * 2) or "-", label)


def line(text: Any, limit: int = ITEM_CHARS) -> str:
    """Stored text as one clean line (control characters and line breaks gone), clipped."""
    return plain_text(None if text is None else str(text), limit) or "-"


def listing(rows: Sequence[str], empty: str) -> str:
    """Items as ``- item`` lines, or ``empty`` when there are none."""
    return "\n".join(f"- {r}" for r in rows) if rows else empty


def censor_line(c: Censor) -> str:
    """A censor: severity, trigger, reason, how often it fired, id."""
    return (
        f"{c.severity.upper()} {line(c.trigger_pattern)}: {line(c.reason)}"
        f" (fired {c.fire_count}x; id {c.id})"
    )


def escalation_line(e: OpenEscalation) -> str:
    """An open escalation (a row of ``audit/open_escalations``)."""
    return (
        f"{line(e.priority)} priority, {line(e.path)}: {line(e.reason)}"
        f" (id {e.id}; decision {e.decision_id})"
    )


def goal_line(g: GoalListed) -> str:
    """A goal (a row of ``audit/goals``): open or done, priority, description, id."""
    state = "done" if g.completed_at else "open"
    return f"{state}, {line(g.priority)}: {line(g.description)} (id {g.id})"
