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

import logging
from dataclasses import asdict, replace
from functools import cached_property
from typing import TYPE_CHECKING

from cognition.chat.layer import CognitiveLayer, turn_started
from cognition.chat.turns import FrameSelection, ToolResult, TurnContext, TurnResult
from cognition.decisions.keep import DecisionKeeper, Said
from cognition.frames.spec import DEFAULT_FRAME, SEED_FRAMES
from cognition.text import clip
from graph.models import Turn
from graph.store.rows.events import NewEvent
from graph.store.team_decisions import TeamDecisionStore
from graph.store.transcripts import NewUtterance
from graph.store.turns import TurnStore, tool_results
from scheduler.claude.compaction import keep_before_compaction
from scheduler.claude.lean_hooks import LeanHooks, answer_event
from scheduler.claude.payload import NOTHING, HookAnswer, HookInput
from scheduler.claude.restore import restore_after_compaction
from scheduler.claude.said import KeptTranscript, keep_transcript
from scheduler.claude.tool_hooks import tool_result

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from pathlib import Path

    from cognition.chat.calls import ToolCalls
    from cognition.sense.history import HistoryLimits
    from graph.settings import ClaudeSettings
    from graph.settings_lean import HookClaude

log = logging.getLogger(__name__)
_PROMPT_CHARS = 500
_RESPONSE_CHARS = 500
_RECALLED_CHARS = 8000
"""What a turn keeps of its recalled context (PostCompact puts back at most its budget of it)."""


class ClaudeSession(LeanHooks):
    """The hooks of one agent's memory: each method answers one event (the table names which).

    The lean events' handlers are :class:`~scheduler.claude.lean_hooks.LeanHooks`'s.
    """

    def __init__(
        self,
        layer: CognitiveLayer,
        turns: TurnStore,
        settings: ClaudeSettings | HookClaude,
        decisions: TeamDecisionStore | None = None,
        *,
        history: tuple[Path, HistoryLimits] | None = None,
    ) -> None:
        """``decisions``: where the decisions stated in the session are kept (none when None);
        ``history``: a root whose new commits a session's start reads (the team server's,
        :class:`~scheduler.claude.lean_hooks.LeanHooks`); their decisions are ``decisions``'
        project's."""
        project = decisions.project if decisions is not None and history is not None else None
        super().__init__(turns.graph, settings, history=history, project=project)
        self.decisions = decisions
        self.layer = layer
        self.turns = turns

    @cached_property
    def calls(self) -> ToolCalls:
        """A failed call's censor, filed at once (built on first use: only failures need it)."""
        from cognition.chat.calls import ToolCalls

        return ToolCalls(self.layer.memory.learning, self.layer.censors)

    async def answer(self, event: str, payload: HookInput) -> HookAnswer:
        """Do what ``event`` asks and say what Claude Code should see (its handler's answer)."""
        return await answer_event(self, event, payload)

    async def read_transcript(self, payload: HookInput) -> KeptTranscript | None:
        """Keep what was said since the last read of the session's transcript
        (:func:`scheduler.claude.said.keep_transcript`), and the decisions it states
        (:class:`cognition.decisions.keep.DecisionKeeper`); a failure is logged, never raised."""
        try:
            kept = await keep_transcript(
                self.layer.memory.transcripts,
                payload.session_id,
                payload.transcript_path,
                sent=payload.transcript,
            )
            if kept is not None and kept.said and self.decisions is not None:
                said = [
                    Said(utterance_id, u.speaker, u.text, u.time, _asked(u))
                    for u, utterance_id in zip(kept.said, kept.ids, strict=True)
                ]
                await DecisionKeeper(self.decisions).from_session(payload.session_id, said)
            return kept
        except Exception:  # the turn goes on whatever the transcript holds
            log.warning("transcript of session %s not read", payload.session_id, exc_info=True)
            return None

    async def prompt_submit(self, payload: HookInput) -> HookAnswer:
        """Seed 004's pre_turn; the turn opened in the graph; the recalled context is the answer.

        The ``Turn`` node and pre_turn's ``turn_started`` event are written by one statement.
        """
        context = await self.layer.prepare_turn(payload.session_id, payload.prompt)
        turn = Turn(
            agent_id=self.turns.graph.agent_id,
            session_id=payload.session_id,
            prompt=clip(payload.prompt, _PROMPT_CHARS),
            recalled=clip(context.system_prompt.strip(), _RECALLED_CHARS),
            frame=context.frame.frame_id,
            decision_id=context.decision_id,
            episode_id=context.episode_id,
        )
        event = NewEvent("turn_started", turn_started(context), session_id=payload.session_id)
        await self.turns.open_turn(turn, event)
        return HookAnswer(context=context.system_prompt.strip())

    async def tool_failed(self, payload: HookInput) -> HookAnswer:
        """Record the failed call's error on the session's open turn, and count it at once.

        The failure files or fires the call's censor before the next call can
        run (:class:`cognition.chat.calls.ToolCalls`).
        """
        result = tool_result(payload, self.settings, failed=True)
        turn = await self.turns.open_turn_of(payload.session_id)
        censor = await self.calls.failed(
            payload.tool_name or None,
            payload.tool_input,
            payload.error or "tool failed",
            episode_id=turn.episode_id if turn is not None else None,
        )
        if censor is not None:
            result = replace(result, censor_id=censor.id, censor_trigger=censor.trigger_pattern)
        await self.memory.calls.record_tool_result(
            payload.session_id, result, keep=self.settings.turn_tool_results
        )
        return NOTHING

    async def stop(self, payload: HookInput) -> HookAnswer:
        """What was said kept from the transcript; seed 004's post_turn on the open turn; the
        turn closed. Never blocks the stop."""
        await self.read_transcript(payload)
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
            tool_results=[ToolResult.model_validate(asdict(r)) for r in tool_results(turn)],
        )
        assessment = await self.layer.post_turn(payload.session_id, result, context)
        await self.turns.close_turn(
            turn.id,
            response=clip(payload.last_assistant_message, _RESPONSE_CHARS),
            outcome=assessment.outcome.value,
            surprise=assessment.surprise_level,
        )
        return NOTHING

    async def pre_compact(self, payload: HookInput) -> HookAnswer:
        """What was said kept, then the session's state before the compaction
        (:mod:`scheduler.claude.compaction`)."""
        await self.read_transcript(payload)
        return await keep_before_compaction(self.layer, self.turns, payload.session_id)

    async def post_compact(self, payload: HookInput) -> HookAnswer:
        """Put back what the session had from Nous (:mod:`scheduler.claude.restore`)."""
        return await restore_after_compaction(
            self.layer, self.turns, self.settings, payload.session_id
        )

    async def session_end(self, payload: HookInput) -> HookAnswer:
        """The transcript's rest kept; seed 004's end_session; turns whose Stop never came are
        marked abandoned."""
        await self.read_transcript(payload)
        await self.turns.close_session_turns(payload.session_id)
        await self.layer.end_session(payload.session_id)
        return NOTHING


def _asked(said: NewUtterance) -> str | None:
    """What an answer replied to (the prompt of its exchange); None for the person's own."""
    return said.prompt if said.speaker == "assistant" else None
