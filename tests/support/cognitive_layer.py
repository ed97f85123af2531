"""What the cognitive layer tests give it: an identity prompt and a failed tool call."""

from __future__ import annotations

from cognition.chat.turns import ToolResult

IDENTITY = "You are Nous, a careful assistant."
PERMISSION = ToolResult(
    tool_name="Write", arguments={"path": "/etc/hosts"}, error="Permission denied"
)
