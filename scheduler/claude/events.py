"""The Claude Code hook events Nous answers (standard library only: the hook imports it first)."""

from __future__ import annotations

EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SessionEnd",
)
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure"})
MAX_PAYLOAD_BYTES = 4 * 1024 * 1024
"""A payload larger than this is refused, unread past the limit (a tool's output can be huge)."""
# Events whose answer Claude Code reads as hookSpecificOutput.additionalContext.
CONTEXT_EVENTS = frozenset({"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"})
