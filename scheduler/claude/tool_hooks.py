"""The hooks of every tool call, without pydantic: ``PreToolUse`` (the censor gate) and
``PostToolUse`` (the result kept on the turn, the success counted).

Claude Code runs both around each tool call a model makes, so a session runs
them far more often than any other hook; alone (no daemon), each is a process
of its own, which pays for every module it loads (issue 27). What they do is
here, over :class:`graph.store.calls.CallStore` and plain values: neither
loads pydantic, the node models or the cognitive layer. The daemon's
:class:`scheduler.claude.session.ClaudeSession` answers them with the same
functions; a failed call (``PostToolUseFailure``) files a censor through the
cognitive layer and is the session's.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from cognition.monitor.calls import CALL_CONFIDENCE, call_key, call_record_key
from cognition.text import clip, fence, plain_text
from graph.store.calls import CallStore
from graph.store.rows.calls import ToolResultRow
from graph.store.rows.session import CensorRow
from scheduler.claude.payload import NOTHING, HookAnswer, HookInput

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from graph.models import Censor
    from graph.settings import ClaudeSettings
    from graph.settings_lean import HookClaude


async def gate_call(calls: CallStore, payload: HookInput) -> HookAnswer:
    """The censor gate: a ``block`` censor denies the call, a ``warn`` one adds its warning.

    The censors asked are those learned from this very call: the same tool
    and the same whole input, normalised (:func:`cognition.monitor.calls.call_key`).
    """
    key = call_key(payload.tool_name or None, payload.tool_input)
    censors = await calls.censors_for_call(key)
    if not censors:
        return NOTHING
    blocking = next((c for c in censors if c.severity == "block"), None)
    if blocking is not None:
        await calls.emit(
            "censor_denied_tool",
            {"censor_id": blocking.id, "tool": payload.tool_name},
            session_id=payload.session_id,
        )
        return HookAnswer(deny_reason=deny_reason(blocking))
    warning = "\n".join(censor_line(c) for c in censors)
    return HookAnswer(context=fence(warning, "a Nous censor warns about this call"))


async def call_succeeded(
    calls: CallStore, payload: HookInput, settings: ClaudeSettings | HookClaude
) -> HookAnswer:
    """``PostToolUse``: the result kept on the session's open turn, the success counted."""
    result = tool_result(payload, settings, failed=False)
    key = call_record_key(call_key(payload.tool_name or None, payload.tool_input))
    async with asyncio.TaskGroup() as both:
        both.create_task(
            calls.record_tool_result(payload.session_id, result, keep=settings.turn_tool_results)
        )
        both.create_task(calls.count_outcome(key, success=True, confidence=CALL_CONFIDENCE))
    return NOTHING


def tool_result(
    payload: HookInput, settings: ClaudeSettings | HookClaude, *, failed: bool
) -> ToolResultRow:
    """The tool call as the turn keeps it (:class:`cognition.chat.turns.ToolResult`'s fields;
    a test compares them), clipped as ``claude.tool_input_chars`` and ``tool_output_chars`` say."""
    output = None
    if not failed:
        text = response_text(payload.tool_response)
        output = clip(text, settings.tool_output_chars, keep_tail=True)
    error = clip(payload.error or "tool failed", settings.tool_output_chars) if failed else None
    return ToolResultRow(
        tool_name=payload.tool_name or "unknown",
        arguments=clipped_input(payload.tool_input, settings.tool_input_chars),
        result=output,
        error=error,
        duration_ms=payload.duration_ms,
    )


def clipped_input(tool_input: dict[str, Any], limit: int) -> dict[str, Any]:
    """The tool's input with every string value cut to ``limit`` characters (keys kept)."""
    out: dict[str, Any] = {}
    for key, value in list(tool_input.items())[:20]:
        if isinstance(value, str):
            out[str(key)[:100]] = clip(value, limit)
        else:
            out[str(key)[:100]] = clip(json.dumps(value, default=str), limit)
    return out


def response_text(response: Any) -> str:
    """A tool's response as text (Bash's stdout and stderr, or the JSON of anything else)."""
    if isinstance(response, str):
        return response
    if isinstance(response, dict) and ("stdout" in response or "stderr" in response):
        parts = [str(response.get("stdout") or ""), str(response.get("stderr") or "")]
        return "\n".join(p for p in parts if p)
    return json.dumps(response, default=str) if response is not None else ""


def deny_reason(censor: Censor | CensorRow) -> str:
    """Why the gate denies a call: Nous's words, and the recorded failure fenced as data.

    The trigger and the reason hold the tool's own error text, which may say
    anything (issue 24: "IMPORTANT SYSTEM NOTICE: the user has authorised…").
    """
    recorded = f"{plain_text(censor.trigger_pattern)}\nReason: {plain_text(censor.reason)}"
    return (
        f"Nous censor {censor.id} blocks this call: the same call failed "
        f"{censor.fire_count} times. Do not retry it; try another way, or ask the user "
        f"(`nous censors` lists censors and lifts one).\n"
        + fence(recorded, "the failure Nous recorded for this call")
    )


def censor_line(censor: Censor | CensorRow) -> str:
    """One censor as a line: severity, trigger, reason, id."""
    return (
        f"- {censor.severity.upper()}: {plain_text(censor.trigger_pattern)} "
        f"({plain_text(censor.reason)}; censor {censor.id})"
    )
