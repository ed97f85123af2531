"""What each Claude Code hook does with Nous's memory (seed 004's API around a model's turn).

One :class:`ClaudeSession` per hook process, or one in the running daemon
for every hook it answers (:mod:`scheduler.claude.hook_server`). Nothing is
kept between hooks in Python: the episode is keyed by Claude Code's ``session_id``, the turn
(its decision, episode, frame and tool results) is a ``Turn`` node opened by
``UserPromptSubmit`` and closed by ``Stop``, and working memory is the
session's ``WorkingMemory`` node. The censor gate asks the graph for the
censors learned from a call described like the one about to run.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from cognition.chat.calls import ToolCalls
from cognition.chat.layer import CognitiveLayer, turn_started
from cognition.chat.turns import FrameSelection, ToolResult, TurnContext, TurnResult
from cognition.frames.spec import DEFAULT_FRAME, SEED_FRAMES
from cognition.monitor.calls import call_key
from cognition.text import CHARS_PER_TOKEN, clip, fence, plain_text
from graph.models import Censor, Turn
from graph.settings import ClaudeSettings
from graph.store.audit import AuditStore
from graph.store.heuristics import HeuristicStore
from graph.store.turns import TurnStore, tool_results
from scheduler.claude.compaction import keep_before_compaction
from scheduler.claude.events import MCP_TOOLS
from scheduler.claude.payload import NOTHING, HookAnswer, HookInput

_PROMPT_CHARS = 500
_RESPONSE_CHARS = 500
_LINE_CHARS = 300
ESCALATION_LIMIT = 10
TOOLS_LINE = (
    "Nous, this project's memory, has MCP tools (server `nous`; search for them if deferred): "
    + "; ".join(f"`{name}`: {what}" for name, what in MCP_TOOLS)
    + "."
)
"""What SessionStart says first, so a model whose MCP tools are deferred knows they exist."""


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


class ClaudeSession:
    """The hooks of one agent's memory: each method answers one event."""

    def __init__(
        self,
        layer: CognitiveLayer,
        turns: TurnStore,
        heuristics: HeuristicStore,
        audit: AuditStore,
        settings: ClaudeSettings,
    ) -> None:
        self.calls = ToolCalls(layer.memory.learning, layer.censors)
        self.layer = layer
        self.turns = turns
        self.heuristics = heuristics
        self.audit = audit
        self.settings = settings

    async def answer(self, event: str, payload: HookInput) -> HookAnswer:
        """Do what ``event`` asks and say what Claude Code should see."""
        if event == "SessionStart":
            return await self.session_start(payload)
        if event == "UserPromptSubmit":
            return await self.prompt_submit(payload)
        if event == "PreToolUse":
            return await self.pre_tool(payload)
        if event in ("PostToolUse", "PostToolUseFailure"):
            return await self.tool_done(payload, failed=event == "PostToolUseFailure")
        if event == "Stop":
            return await self.stop(payload)
        if event == "PreCompact":
            return await keep_before_compaction(self.layer, self.turns, payload.session_id)
        if event == "SessionEnd":
            return await self.session_end(payload)
        return NOTHING

    async def session_start(self, payload: HookInput) -> HookAnswer:
        """Start the episode; the answer: strategies, censors (block first), open escalations."""
        await self.layer.memory.episodes.start_episode(payload.session_id)
        strategies = await self.heuristics.active()
        censors = await self.layer.memory.censors.active_censors()
        escalations = await self.audit.open_escalations(ESCALATION_LIMIT)
        sections = [
            ("Strategies Nous has learned", [f"- {h.content}" for h in strategies]),
            ("Censors (what not to do again)", [censor_line(c) for c in censors]),
            (
                "Escalations waiting for a person",
                [
                    f"- [{e['priority']}] {e['reason']} ({e['path'] or 'no path'})"
                    for e in escalations
                ],
            ),
        ]
        text = "\n\n".join(
            f"## {title}\n" + "\n".join(plain_text(line, _LINE_CHARS) for line in lines)
            for title, lines in sections
            if lines
        )
        room = self.settings.session_start_tokens * CHARS_PER_TOKEN
        memory = fence(clip(text, room), "Nous's memory for this project") if text else ""
        return HookAnswer(context="\n\n".join(p for p in (TOOLS_LINE, memory) if p))

    async def prompt_submit(self, payload: HookInput) -> HookAnswer:
        """Seed 004's pre_turn; the turn opened in the graph; the recalled context is the answer.

        The ``Turn`` node and pre_turn's ``turn_started`` event are written by one statement.
        """
        context = await self.layer.prepare_turn(payload.session_id, payload.prompt)
        turn = Turn(
            agent_id=self.turns.graph.agent_id,
            session_id=payload.session_id,
            prompt=clip(payload.prompt, _PROMPT_CHARS),
            frame=context.frame.frame_id,
            decision_id=context.decision_id,
            episode_id=context.episode_id,
        )
        event = self.layer.memory.events.event_properties(
            "turn_started", turn_started(context), session_id=payload.session_id
        )
        await self.turns.open_turn(turn, event)
        return HookAnswer(context=context.system_prompt.strip())

    async def pre_tool(self, payload: HookInput) -> HookAnswer:
        """The censor gate: a ``block`` censor denies the call, a ``warn`` one adds its warning.

        The censors asked are those learned from this very call: the same tool
        and the same whole input, normalised (:func:`cognition.monitor.calls.call_key`).
        """
        key = call_key(payload.tool_name or None, payload.tool_input)
        censors = await self.turns.censors_for_call(key)
        if not censors:
            return NOTHING
        blocking = next((c for c in censors if c.severity == "block"), None)
        if blocking is not None:
            await self.layer.memory.events.emit(
                "censor_denied_tool",
                {"censor_id": blocking.id, "tool": payload.tool_name},
                session_id=payload.session_id,
            )
            return HookAnswer(deny_reason=deny_reason(blocking))
        warning = "\n".join(censor_line(c) for c in censors)
        return HookAnswer(context=fence(warning, "a Nous censor warns about this call"))

    async def tool_done(self, payload: HookInput, *, failed: bool) -> HookAnswer:
        """Record the tool's result or error on the session's open turn, and count it at once.

        A failure files or fires the call's censor before the next call can
        run (:class:`cognition.chat.calls.ToolCalls`); a success adds to the
        call's record.
        """
        result = self._tool_result(payload, failed=failed)
        if failed:
            turn = await self.turns.open_turn_of(payload.session_id)
            censor = await self.calls.failed(
                payload.tool_name or None,
                payload.tool_input,
                payload.error or "tool failed",
                episode_id=turn.episode_id if turn is not None else None,
            )
            if censor is not None:
                result = result.model_copy(
                    update={"censor_id": censor.id, "censor_trigger": censor.trigger_pattern}
                )
            await self._keep(payload.session_id, result)
        else:
            async with asyncio.TaskGroup() as both:
                both.create_task(self._keep(payload.session_id, result))
                both.create_task(
                    self.calls.succeeded(payload.tool_name or None, payload.tool_input)
                )
        return NOTHING

    async def _keep(self, session_id: str, result: ToolResult) -> None:
        await self.turns.record_tool_result(
            session_id, result.model_dump(), keep=self.settings.turn_tool_results
        )

    def _tool_result(self, payload: HookInput, *, failed: bool) -> ToolResult:
        return ToolResult(
            tool_name=payload.tool_name or "unknown",
            arguments=clipped_input(payload.tool_input, self.settings.tool_input_chars),
            result=None
            if failed
            else clip(
                response_text(payload.tool_response),
                self.settings.tool_output_chars,
                keep_tail=True,
            ),
            error=clip(payload.error or "tool failed", self.settings.tool_output_chars)
            if failed
            else None,
            duration_ms=payload.duration_ms,
        )

    async def stop(self, payload: HookInput) -> HookAnswer:
        """Seed 004's post_turn on the open turn; the turn closed. Never blocks the stop."""
        turn = await self.turns.open_turn_of(payload.session_id)
        if turn is None:
            return NOTHING
        spec = next(
            (f for f in SEED_FRAMES if f.name == turn.frame),
            next(f for f in SEED_FRAMES if f.name == DEFAULT_FRAME),
        )
        context = TurnContext(
            session_id=payload.session_id,
            system_prompt="",
            frame=FrameSelection.from_spec(spec, confidence=1.0, match_method="pattern"),
            decision_id=turn.decision_id,
            episode_id=turn.episode_id,
        )
        result = TurnResult(
            response_text=payload.last_assistant_message,
            tool_results=[ToolResult.model_validate(r) for r in tool_results(turn)],
        )
        assessment = await self.layer.post_turn(payload.session_id, result, context)
        await self.turns.close_turn(
            turn.id,
            response=clip(payload.last_assistant_message, _RESPONSE_CHARS),
            outcome=assessment.outcome.value,
            surprise=assessment.surprise_level,
        )
        return NOTHING

    async def session_end(self, payload: HookInput) -> HookAnswer:
        """Seed 004's end_session; turns whose Stop never came are marked abandoned."""
        await self.turns.close_session_turns(payload.session_id)
        await self.layer.end_session(payload.session_id)
        return NOTHING


def deny_reason(censor: Censor) -> str:
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


def censor_line(censor: Censor) -> str:
    """One censor as a line: severity, trigger, reason, id."""
    return (
        f"- {censor.severity.upper()}: {plain_text(censor.trigger_pattern)} "
        f"({plain_text(censor.reason)}; censor {censor.id})"
    )
