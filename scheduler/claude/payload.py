"""What Claude Code sends a hook on stdin, and the answer it reads on stdout.

Checked against Claude Code 2.1.328: every event carries ``session_id``,
``transcript_path``, ``cwd`` and ``hook_event_name``; ``UserPromptSubmit``
adds ``prompt``; ``PreToolUse`` ``tool_name``, ``tool_input`` and
``tool_use_id``; ``PostToolUse`` also ``tool_response`` and ``duration_ms``;
``PostToolUseFailure`` ``error`` instead; ``Stop`` ``last_assistant_message``;
``SessionEnd`` ``reason``; ``PreCompact`` ``trigger`` (manual, auto) and
``custom_instructions``. Fields Nous does not use are ignored, so a newer
CLI adding some breaks nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from scheduler.claude.events import CONTEXT_EVENTS, MAX_PAYLOAD_BYTES, TEXT_EVENTS


class HookInput(BaseModel):
    """One hook's JSON from stdin (the fields Nous reads)."""

    model_config = ConfigDict(extra="ignore")

    session_id: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")
    hook_event_name: str | None = None
    cwd: str | None = None
    prompt: str = ""
    tool_name: str = Field("", max_length=200)
    tool_input: dict[str, Any] = Field(default_factory=dict)
    tool_use_id: str | None = None
    tool_response: Any = None
    error: str | None = None
    duration_ms: int | None = Field(None, ge=0)
    last_assistant_message: str = ""
    source: str | None = None
    reason: str | None = None
    trigger: str | None = Field(None, max_length=50)


class PayloadError(ValueError):
    """The hook's stdin is not a payload Nous can read (said on stderr; the turn goes on)."""


def parse_payload(raw: bytes, event: str) -> HookInput:
    """The payload of ``event`` from stdin's bytes; :class:`PayloadError` naming what is wrong."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise PayloadError(f"{event}: payload over {MAX_PAYLOAD_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError as exc:
        raise PayloadError(f"{event}: stdin is not JSON ({exc.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise PayloadError(f"{event}: stdin is not a JSON object")
    try:
        payload = HookInput.model_validate(data)
    except ValueError as exc:
        fields = ", ".join(
            ".".join(str(p) for p in e["loc"]) for e in getattr(exc, "errors", lambda: [])()
        )
        raise PayloadError(f"{event}: bad payload field(s): {fields or exc}") from None
    named = payload.hook_event_name
    if named is not None and named != event:
        raise PayloadError(f"hook called for {event} with a {named!r} payload")
    return payload


@dataclass(frozen=True)
class HookAnswer:
    """What a hook tells Claude Code: context to add, or (PreToolUse only) a denial."""

    context: str = ""
    deny_reason: str | None = None

    def render(self, event: str) -> str:
        """What Claude Code reads on stdout (JSON, or plain text for PreCompact); "" for nothing."""
        if event in TEXT_EVENTS:
            return self.context
        output: dict[str, Any] = {"hookEventName": event}
        if event == "PreToolUse" and self.deny_reason:
            output["permissionDecision"] = "deny"
            output["permissionDecisionReason"] = self.deny_reason
        if self.context and event in CONTEXT_EVENTS:
            output["additionalContext"] = self.context
        if len(output) == 1:
            return ""
        return json.dumps({"hookSpecificOutput": output})


NOTHING = HookAnswer()
