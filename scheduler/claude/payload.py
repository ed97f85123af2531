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
from typing import TYPE_CHECKING, Any

from cognition.sense.door import admit
from graph.intake import HookFields, Prompt, Provenance, Reply, ToolUse
from graph.settings_lean import Spec
from scheduler.claude.events import BY_NAME, CONTEXT, MAX_PAYLOAD_BYTES, TEXT

if TYPE_CHECKING:  # set by the team server only
    from scheduler.claude.transcript import SentTranscript

# What each field Nous reads may hold (pydantic's lax rules, without pydantic: a hook's
# process pays for what it imports). A field an event's entry names that has no spec here is
# kept as it came in HookInput.more; fields no entry names are ignored.
_REQUIRED = object()
_TEXT_FIELDS: dict[str, tuple[Spec, object]] = {
    "session_id": (
        Spec("str", "", min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$"),
        _REQUIRED,
    ),
    "hook_event_name": (Spec("str", None, nullable=True), None),
    "cwd": (Spec("str", None, nullable=True), None),
    "transcript_path": (Spec("str", None, nullable=True, max_length=4096), None),
    "prompt": (Spec("str", ""), ""),
    "tool_name": (Spec("str", "", max_length=200), ""),
    "tool_use_id": (Spec("str", None, nullable=True), None),
    "error": (Spec("str", None, nullable=True), None),
    "duration_ms": (Spec("int", None, nullable=True, ge=0), None),
    "last_assistant_message": (Spec("str", ""), ""),
    "source": (Spec("str", None, nullable=True), None),
    "reason": (Spec("str", None, nullable=True), None),
    "trigger": (Spec("str", None, nullable=True, max_length=50), None),
}


_OTHER_FIELDS = frozenset({"tool_input", "tool_response"})
"""The payload's fields read as they came (beside :data:`_TEXT_FIELDS`)."""


class HookInput:
    """One hook's JSON from stdin (the fields Nous reads); ``ValueError`` naming bad fields."""

    __slots__ = (*_TEXT_FIELDS, "more", "tool_input", "tool_response", "transcript")
    session_id: str
    hook_event_name: str | None
    cwd: str | None
    transcript_path: str | None
    prompt: str
    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str | None
    tool_response: Any
    transcript: SentTranscript | None
    """The transcript's bytes a hook sent the team server with its payload (set by the
    server, never read from the payload's JSON)."""
    more: dict[str, Any]
    """The fields the event's entry names that no attribute holds (``fields`` of
    :class:`scheduler.claude.events.HookEvent`), as they came."""
    error: str | None
    duration_ms: int | None
    last_assistant_message: str
    source: str | None
    reason: str | None
    trigger: str | None

    def __init__(self, **fields: Any) -> None:
        bad: list[str] = []
        for name, (spec, default) in _TEXT_FIELDS.items():
            if name not in fields:
                if default is _REQUIRED:
                    bad.append(f"{name} (missing)")
                setattr(self, name, default)
                continue
            try:
                setattr(self, name, spec.check(fields[name]))
            except ValueError as exc:
                bad.append(f"{name} ({exc})")
        tool_input = fields.get("tool_input", {})
        if not isinstance(tool_input, dict):
            bad.append("tool_input (Input should be a valid dictionary)")
        self.tool_input = dict(tool_input) if isinstance(tool_input, dict) else {}
        self.tool_response = fields.get("tool_response")
        self.more = dict(fields.get("more") or {})
        self.transcript = None
        if bad:
            raise ValueError("bad payload field(s): " + ", ".join(bad))

    def __repr__(self) -> str:
        return (
            f"HookInput(session_id={self.session_id!r}, hook_event_name={self.hook_event_name!r})"
        )


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
    spec = BY_NAME.get(event)
    if spec is None:
        raise PayloadError(f"no such hook event: {event[:50]!r}")
    known = {k: v for k, v in data.items() if k in _TEXT_FIELDS or k in _OTHER_FIELDS}
    more = {k: data[k] for k in spec.fields if k not in HookInput.__slots__ and k in data}
    try:
        payload = HookInput(**known, more=more)
    except ValueError as exc:
        raise PayloadError(f"{event}: {exc}") from None
    named = payload.hook_event_name
    if named is not None and named != event:
        raise PayloadError(f"hook called for {event} with a {named!r} payload")
    return through_door(payload)


def through_door(payload: HookInput) -> HookInput:
    """``payload`` with what memory may keep of it (:func:`cognition.sense.door.admit`).

    Every text a hook reads (the prompt, the tool's input, output and error,
    the assistant's reply, the event's other fields) is admitted before any part of Nous sees it, so
    nothing derived from it (a turn, a decision, a censor, a call's key) can
    hold a secret. The same input always comes out the same: the gate and the
    failure's censor compute the same call key.
    """
    session = payload.session_id
    if payload.prompt:
        payload.prompt = admit(Prompt(payload.prompt, Provenance("prompt", session))).record.text
    if payload.tool_input or payload.tool_response is not None or payload.error:
        tool = admit(
            ToolUse(
                payload.tool_name,
                payload.tool_input,
                payload.tool_response,
                payload.error,
                Provenance("tool", session),
            )
        ).record
        payload.tool_input = dict(tool.tool_input)
        payload.tool_response, payload.error = tool.output, tool.error
    if payload.last_assistant_message:
        reply = Reply(payload.last_assistant_message, Provenance("reply", session))
        payload.last_assistant_message = admit(reply).record.text
    if payload.more:
        more = HookFields(payload.more, Provenance("hook", session))
        payload.more = dict(admit(more).record.fields)
    return payload


@dataclass(frozen=True)
class HookAnswer:
    """What a hook tells Claude Code: context to add, or (an event that ``denies``) a denial."""

    context: str = ""
    deny_reason: str | None = None

    def render(self, event: str) -> str:
        """What Claude Code reads on stdout (JSON, or plain text for a ``TEXT`` event); "" for
        nothing."""
        spec = BY_NAME[event]
        if spec.answer == TEXT:
            return self.context
        output: dict[str, Any] = {"hookEventName": event}
        if spec.denies and self.deny_reason:
            output["permissionDecision"] = "deny"
            output["permissionDecisionReason"] = self.deny_reason
        if self.context and spec.answer == CONTEXT:
            output["additionalContext"] = self.context
        if len(output) == 1:
            return ""
        return json.dumps({"hookSpecificOutput": output})


NOTHING = HookAnswer()
