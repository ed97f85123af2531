"""The Claude Code hook events Nous answers: one table (standard library only: the hook imports
it first, before anything else).

Each :class:`HookEvent` names an event once, with everything the rest of the
code asks about it: the payload fields its handler reads, the handler (a
method of :class:`scheduler.claude.session.ClaudeSession`, and of
:class:`scheduler.claude.lean_hooks.LeanHooks` for an event answered without
the session's parts), how Claude Code reads its answer, whether the daemon
may answer it and whether it hands its writes to the vectors child. The
command line, ``nous init claude``, the payload's reader, the answer's
rendering, the daemon's socket and the hook working alone all read this
table; no other module spells an event's name (``tests/test_shape.py``).
Adding an event is one entry here and one handler.
"""

from __future__ import annotations

CONTEXT = "context"
"""Claude Code reads the answer as ``hookSpecificOutput.additionalContext`` (the model sees it)."""
TEXT = "text"
"""Claude Code reads the answer as plain stdout: PreCompact's becomes the compaction's
instructions; PostCompact's stays in the conversation, as the hook's output."""
NONE = "none"
"""Claude Code reads nothing Nous would say: the hook answers nothing."""


class HookEvent:
    """One Claude Code hook event, as Nous answers it."""

    __slots__ = (
        "answer",
        "daemon",
        "denies",
        "fields",
        "first",
        "handler",
        "lean",
        "matcher",
        "name",
        "vectors",
    )

    def __init__(
        self,
        name: str,
        handler: str,
        *,
        fields: tuple[str, ...] = (),
        answer: str = NONE,
        daemon: bool = True,
        lean: bool = False,
        vectors: bool = False,
        matcher: str | None = None,
        denies: bool = False,
        first: bool = False,
    ) -> None:
        self.name = name
        self.handler = handler
        """The handler's method name on the hook handlers (``ClaudeSession``, ``LeanHooks``)."""
        self.fields = fields
        """The payload fields the handler reads, beyond ``session_id``, ``hook_event_name`` and
        ``cwd`` (:class:`scheduler.claude.payload.HookInput`)."""
        self.answer = answer
        """How Claude Code reads the answer: :data:`CONTEXT`, :data:`TEXT` or :data:`NONE`."""
        self.daemon = daemon
        """The running daemon may answer it through its hook socket (else the hook works
        alone)."""
        self.lean = lean
        """A hook working alone answers it over the agent's graph alone (``LeanHooks``): no
        pydantic, no cognitive layer."""
        self.vectors = vectors
        """A hook working alone then embeds the turn's writes in a detached child."""
        self.matcher = matcher
        """The matcher ``nous init claude`` registers it with (``*``: every tool), or none."""
        self.denies = denies
        """Its answer may deny what is about to run (``permissionDecision``)."""
        self.first = first
        """The session's first answer: it says when no daemon runs on the project."""

    def __repr__(self) -> str:
        return f"HookEvent({self.name!r}, {self.handler!r})"


_TOOL = ("tool_name", "tool_input", "tool_use_id")
HOOK_EVENTS = (
    HookEvent(
        "SessionStart", "session_start", fields=("source",), answer=CONTEXT, lean=True, first=True
    ),
    HookEvent("UserPromptSubmit", "prompt_submit", fields=("prompt",), answer=CONTEXT),
    HookEvent(
        "PreToolUse", "pre_tool", fields=_TOOL, answer=CONTEXT, lean=True, matcher="*", denies=True
    ),
    HookEvent(
        "PostToolUse",
        "tool_succeeded",
        fields=(*_TOOL, "tool_response", "duration_ms"),
        answer=CONTEXT,
        lean=True,
        matcher="*",
    ),
    HookEvent("PostToolUseFailure", "tool_failed", fields=(*_TOOL, "error"), matcher="*"),
    HookEvent("Stop", "stop", fields=("last_assistant_message", "transcript_path"), vectors=True),
    HookEvent(
        "PreCompact",
        "pre_compact",
        fields=("trigger", "transcript_path"),
        answer=TEXT,
        vectors=True,
    ),
    HookEvent("PostCompact", "post_compact", fields=("trigger", "compact_summary"), answer=TEXT),
    HookEvent("SessionEnd", "session_end", fields=("reason", "transcript_path"), vectors=True),
)
"""Every event Nous answers, in the order ``nous init claude`` registers them."""
BY_NAME = {event.name: event for event in HOOK_EVENTS}
EVENTS = tuple(BY_NAME)
"""The events' names (``nous hook EVENT``'s choices)."""
MAX_PAYLOAD_BYTES = 4 * 1024 * 1024
"""A payload larger than this is refused, unread past the limit (a tool's output can be huge)."""
MCP_TOOLS = (
    ("recall", "what memory holds about a question or a file"),
    ("why", "the story of a past decision"),
    ("censors", "what not to do again"),
    ("strategies", "what Nous has learned works"),
    ("escalations", "what waits for a person"),
    ("goals", "the project's goals"),
    ("remember", "keep a fact or a procedure"),
)
"""The tools of ``nous mcp`` (``mcp__nous__NAME``) and what each is for, as SessionStart names
them for a model whose MCP tools are deferred (a test checks the server offers these)."""
