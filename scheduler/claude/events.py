"""The Claude Code hook events Nous answers (standard library only: the hook imports it first)."""

from __future__ import annotations

EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "PreCompact",
    "SessionEnd",
)
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure"})
MAX_PAYLOAD_BYTES = 4 * 1024 * 1024
"""A payload larger than this is refused, unread past the limit (a tool's output can be huge)."""
# Events whose answer Claude Code reads as hookSpecificOutput.additionalContext.
CONTEXT_EVENTS = frozenset({"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"})
# Events whose answer Claude Code reads as plain text: PreCompact's stdout becomes the
# compaction's custom instructions.
TEXT_EVENTS = frozenset({"PreCompact"})
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
