"""``SessionStart`` without pydantic: the episode started, and what the session is shown first.

The session's first answer names Nous's MCP tools (for a model whose tools
are deferred), then the strategies Nous has learned, its censors (block
first) and the escalations waiting for a person, fenced as data. It reads
plain properties (:class:`graph.store.session_start.SessionStartStore`,
:class:`graph.store.audit.AuditStore`), so a hook working alone loads no node
model (issue 27); the daemon's :class:`scheduler.claude.session.ClaudeSession`
answers with the same function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cognition.text import CHARS_PER_TOKEN, clip, fence, plain_text
from graph.store.audit import AuditStore
from graph.store.session_start import SessionStartStore
from scheduler.claude.events import MCP_TOOLS
from scheduler.claude.payload import HookAnswer, HookInput
from scheduler.claude.tool_hooks import censor_line

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from graph.settings import ClaudeSettings
    from graph.settings_lean import HookClaude

_LINE_CHARS = 300
ESCALATION_LIMIT = 10
TOOLS_LINE = (
    "Nous, this project's memory, has MCP tools (server `nous`; search for them if deferred): "
    + "; ".join(f"`{name}`: {what}" for name, what in MCP_TOOLS)
    + "."
)
"""What SessionStart says first, so a model whose MCP tools are deferred knows they exist."""


async def start_session(
    store: SessionStartStore,
    audit: AuditStore,
    payload: HookInput,
    settings: ClaudeSettings | HookClaude,
) -> HookAnswer:
    """Start the episode; the answer: the tools, strategies, censors (block first), open
    escalations, within ``claude.session_start_tokens``."""
    await store.start_episode(payload.session_id)
    strategies = await store.heuristics("active")
    censors = await store.active_censors()
    escalations = await audit.open_escalations(ESCALATION_LIMIT)
    sections = [
        ("Strategies Nous has learned", [f"- {h.content}" for h in strategies]),
        ("Censors (what not to do again)", [censor_line(c) for c in censors]),
        (
            "Escalations waiting for a person",
            [f"- [{e.priority}] {e.reason} ({e.path or 'no path'})" for e in escalations],
        ),
    ]
    text = "\n\n".join(
        f"## {title}\n" + "\n".join(plain_text(line, _LINE_CHARS) for line in lines)
        for title, lines in sections
        if lines
    )
    room = settings.session_start_tokens * CHARS_PER_TOKEN
    memory = fence(clip(text, room), "Nous's memory for this project") if text else ""
    return HookAnswer(context="\n\n".join(p for p in (TOOLS_LINE, memory) if p))
