"""``remember``: what a client tells Nous, checked and kept as a ``Fact`` or ``Procedure``.

The text is data from outside: control characters and escape sequences are
dropped, its length is capped (``mcp.max_remember_chars``), and it must say
where it came from. A fact is one line; a procedure is its steps, one a
line. Both are written through the learning store (a fact in its context: the
fact told just before it from the same source in the same client session), an
``Event`` records the telling, and the full-text indexes are refreshed so the next ``recall``
finds it.
"""

from __future__ import annotations

from typing import Literal

from mcp.server.fastmcp.exceptions import ToolError

from cognition.sense.door import admit
from cognition.text import plain_text
from graph.intake import Provenance, Remembered
from graph.models import Fact, Procedure
from graph.store.memory import Memory

Kind = Literal["fact", "procedure"]
MAX_SOURCE_CHARS = 500
MAX_NAME_CHARS = 200
MAX_DOMAIN_CHARS = 80


def told(
    agent_id: str,
    kind: Kind,
    text: str,
    source: str,
    *,
    name: str | None = None,
    domain: str = "",
    max_chars: int,
) -> tuple[Fact | Procedure, str]:
    """The node to keep and its cleaned source; :class:`ToolError` naming what is wrong.

    What was told goes through the door first (:func:`cognition.sense.door.admit`):
    a secret in it is kept as its marker.
    """
    said = admit(Remembered(kind, text, source, Provenance("remember"))).record
    text = plain_text(said.text, single_line=kind == "fact")
    source = plain_text(said.said_source)
    if not text:
        raise ToolError(f"remember: the {kind}'s text is empty")
    if len(text) > max_chars:
        raise ToolError(
            f"remember: the {kind} has {len(text):,} characters, more than"
            f" mcp.max_remember_chars ({max_chars:,}); keep one {kind} to what is worth recalling"
        )
    if not source:
        raise ToolError("remember: say where it came from (source: a file, a URL, a person)")
    source = source[:MAX_SOURCE_CHARS]
    if kind == "fact":
        return Fact(agent_id=agent_id, content=text), source
    steps = [step for step in (plain_text(x) for x in text.splitlines()) if step]
    return (
        Procedure(
            agent_id=agent_id,
            name=plain_text(name or steps[0])[:MAX_NAME_CHARS],
            domain=plain_text(domain)[:MAX_DOMAIN_CHARS],
            core_patterns=steps,
        ),
        source,
    )


async def keep(
    memory: Memory, node: Fact | Procedure, source: str, *, session_id: str | None = None
) -> str:
    """Write ``node`` with its source, record the event, and return its id.

    A fact told in the client's session ``session_id`` is kept in its context: the fact
    told just before it from the same source in that session.
    """
    if isinstance(node, Fact):
        node_id = await memory.episodes.remember_fact(node, source=source, session_id=session_id)
    else:
        node_id = await memory.episodes.remember_procedure(node, source=source)
    kind = type(node).__name__.lower()
    await memory.events.emit(f"{kind}_remembered", {f"{kind}_id": node_id, "source": source})
    # Full-text indexes are eventually consistent: the client's next recall should find it.
    await memory.await_text_indexes()
    return node_id
