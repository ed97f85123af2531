"""The cognitive layer for chat runtimes (seed 004): the Nous loop around a model's turn.

``pre_turn`` senses the user's input, chooses a frame, starts the session's
episode, opens a decision for frames that deliberate, updates working memory
and builds the system prompt. ``post_turn`` assesses the turn, files censors,
learns from the decision and closes it, and notes the turn in the episode.
``end_session`` ends the episode. Every step leaves nodes and ``Event``s.
``pre_turn``'s steps that do not read each other's results run at once
(:meth:`CognitiveLayer.prepare_turn`): a hook waits for the whole of it.

Seed 004's error handling: no public method lets an exception out. A failed
step is logged and the turn goes on without it (the conversation frame when
selection fails, a minimal prompt when the context cannot be built, no
decision when deliberation cannot start).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from cognition.chat.cases import SessionCases
from cognition.chat.code_notes import SessionNotes
from cognition.chat.decision import DELIBERATE_FRAMES, close_decision, open_decision
from cognition.chat.steps import assess_turn as _assess
from cognition.chat.steps import attempt_step as _attempt
from cognition.chat.turns import (
    TurnContext,
    TurnResult,
    render_turn_context,
)
from cognition.frames.engine import FrameEngine
from cognition.frames.selection import FrameSelection
from cognition.frames.spec import DEFAULT_FRAME, SEED_FRAMES
from cognition.monitor import Assessment, EpisodeOutcome
from cognition.text import estimate_tokens, plain_text
from graph.models import Censor, Episode
from graph.models.frame import FrameSpec
from graph.store.memory import Memory

if TYPE_CHECKING:
    from cognition.learn.learner import CensorBook, OutcomeLearner

# Called as builder(user_input, frame, session_id); returns the system prompt.
ContextBuilder = Callable[[str, FrameSpec, str], Awaitable[str]]

_TEXT_CHARS = 200
_TASK_CHARS = 500
_CONVERSATION = next(f for f in SEED_FRAMES if f.name == DEFAULT_FRAME)


def turn_started(context: TurnContext) -> dict[str, str | None]:
    """The data of a prepared turn's ``turn_started`` event."""
    return {
        "frame": context.frame.frame_id,
        "decision_id": context.decision_id,
        "episode_id": context.episode_id,
    }


def reads_working_memory(builder: ContextBuilder) -> bool:
    """Whether ``builder`` reads the session's working memory, so must run after its update.

    A builder says it does not with a ``reads_working_memory = False`` attribute
    (then both run at once); any other is assumed to, as :meth:`CognitiveLayer.minimal_context`
    does.
    """
    return getattr(builder, "reads_working_memory", True) is not False


class CognitiveLayer:
    """Seed 004's CognitiveLayer on the graph: pre_turn, post_turn, end_session."""

    def __init__(
        self,
        memory: Memory,
        frames: FrameEngine,
        learner: OutcomeLearner | None = None,
        *,
        censors: CensorBook | None = None,
        context_builder: ContextBuilder | None = None,
        identity_prompt: str = "",
        cases: SessionCases | None = None,
        code_notes: SessionNotes | None = None,
        verifying: frozenset[str] = frozenset(),
        decide: bool = True,
    ) -> None:
        self.memory = memory
        self.frames = frames
        self._learner, self._censors = learner, censors
        self.identity_prompt = identity_prompt
        self.context_builder = context_builder or self.minimal_context
        self.cases = cases if cases is not None else SessionCases(memory)  # issue 25
        self.code_notes = code_notes if code_notes is not None else SessionNotes(memory)
        # Tools whose failure is a check that failed (a test run): kept as code notes, not
        # censored, since "avoid this call" says nothing true of the next check.
        self.verifying = verifying
        # False: no turn opens a decision, so no outcome is learned from one (a memory held
        # still while it is measured: bench.lessons' held-out arms).
        self.decide = decide

    # The learner and the censor book serve a turn's end: built on first use, so a process that
    # only prepares a turn (a prompt's hook) never loads them (issue 27).
    @property
    def learner(self) -> OutcomeLearner:
        """What learns from a finished turn's decision (given, or the memory's own)."""
        if self._learner is None:
            from cognition.learn.learner import OutcomeLearner

            self._learner = OutcomeLearner(self.memory)
        return self._learner

    @property
    def censors(self) -> CensorBook:
        """Where failed calls file censors (given, or the memory's own)."""
        if self._censors is None:
            from cognition.learn.learner import CensorBook

            self._censors = CensorBook(self.memory.censors)
        return self._censors

    async def pre_turn(self, session_id: str, user_input: str) -> TurnContext:
        """SENSE → FRAME → RECALL → DELIBERATE: prepare the model's turn."""
        context = await self.prepare_turn(session_id, user_input)
        await self.announce_turn(context)
        return context

    async def prepare_turn(self, session_id: str, user_input: str) -> TurnContext:
        """:meth:`pre_turn` without its ``turn_started`` event (see :meth:`announce_turn`).

        The steps that do not need each other's results run at once, each on
        a session of its own: the frame, the episode and the active censors
        first; then, once the frame is known, its use counted, the decision
        opened (once the episode is there too), working memory updated and the
        context built. A builder that reads working memory waits for the
        update (:func:`reads_working_memory`). A step that fails leaves its
        fallback; the others keep their results.
        """
        async with asyncio.TaskGroup() as steps:
            matched = steps.create_task(self._match_frame(user_input))
            started = steps.create_task(
                _attempt("episode start", lambda: self._start_episode(session_id), None)
            )
            active = steps.create_task(self._active_censors())
            # Created in this order, they go on in this order once the frame is known: the
            # context (recall, the longest step) first.
            built = steps.create_task(self._build_context(session_id, user_input, matched))
            deliberating = steps.create_task(
                self._open_decision(session_id, user_input, matched, started)
            )
            counted = steps.create_task(self._count_frame(matched))
            examples = steps.create_task(
                _attempt("case recall", lambda: self.cases.before_turn(session_id, user_input), "")
            )
            notes = steps.create_task(
                _attempt(
                    "code note recall",
                    lambda: self.code_notes.before_turn(session_id, user_input),
                    "",
                )
            )
        prompt = built.result() + examples.result() + notes.result()
        return TurnContext(
            session_id=session_id,
            system_prompt=prompt,
            frame=counted.result(),
            decision_id=deliberating.result(),
            episode_id=started.result(),
            active_censors=active.result(),
            context_token_estimate=estimate_tokens(prompt),
        )

    async def _start_episode(self, session_id: str) -> str:
        """The id of the session's open episode, started (and its event written) if none."""
        episode, _ = await self.memory.episodes.start_episode(session_id)
        return episode.id

    async def announce_turn(self, context: TurnContext) -> None:
        """Write the ``turn_started`` event of a prepared turn (never raises)."""
        await self.memory.events.emit(
            "turn_started", turn_started(context), session_id=context.session_id
        )

    async def post_turn(
        self, session_id: str, result: TurnResult, context: TurnContext
    ) -> Assessment:
        """MONITOR → LEARN: assess the finished turn and learn from it."""
        assessment = _assess(result, result.tool_results)
        censors = await self._file_censors(result, context)
        counted = [t for t in result.tool_results if t.censor_id is not None]
        lessons = [t.censor_trigger or "" for t in counted] + [c.trigger_pattern for c in censors]
        decision_id, episode_id = context.decision_id, context.episode_id
        await _attempt("cases", lambda: self.cases.after_turn(result, context, assessment), None)
        await _attempt(
            "code notes", lambda: self.code_notes.after_turn(result, context, assessment), None
        )
        if decision_id is not None:
            await _attempt("learning", lambda: self._learn(decision_id, assessment, result), None)
            await _attempt(
                "deliberation finalize",
                lambda: close_decision(self.memory, decision_id, assessment, result),
                None,
            )
        if episode_id is not None:
            summary = f"{context.frame.frame_id}: {plain_text(result.response_text, _TEXT_CHARS)}"
            await _attempt(
                "episode note",
                lambda: self.memory.episodes.note_episode(
                    episode_id,
                    summary=summary,
                    outcome=assessment.outcome.value,
                    lessons=list(dict.fromkeys(lesson for lesson in lessons if lesson)),
                ),
                False,
            )
        await self.memory.events.emit(
            "turn_completed",
            {
                "frame": context.frame.frame_id,
                "surprise_level": assessment.surprise_level,
                "decision_id": context.decision_id,
                "has_errors": assessment.has_errors,
                "outcome": assessment.outcome.value,
                "censors": list(
                    dict.fromkeys([*(t.censor_id for t in counted), *(c.id for c in censors)])
                ),
            },
            session_id=session_id,
        )
        return assessment

    async def _file_censors(self, result: TurnResult, context: TurnContext) -> list[Censor]:
        """The censors the turn's failed calls teach (none for a failed check)."""
        # A failure the runtime reported as it happened (ToolCalls) has its censor already.
        uncounted = [
            t
            for t in result.tool_results
            if t.censor_id is None and t.tool_name not in self.verifying
        ]
        no_censors: list[Censor] = []
        return await _attempt(
            "censor filing",
            lambda: self.censors.from_assessment(
                _assess(result, uncounted), episode_id=context.episode_id
            ),
            no_censors,
        )

    async def end_session(self, session_id: str) -> Episode | None:
        """End the session's episode ("completed"); a second call does nothing.

        Returns the episode ended now, or None when there was none open.
        """
        ended = await _attempt(
            "episode end", lambda: self.memory.episodes.end_session(session_id), None
        )
        if ended is not None:
            await self.memory.events.emit(
                "session_ended",
                {"episode_id": ended.id, "outcome": ended.outcome},
                session_id=session_id,
            )
        return ended

    async def minimal_context(self, user_input: str, frame: FrameSpec, session_id: str) -> str:
        """The default context: identity, active censors, frame, working memory."""
        censors = await self.memory.censors.active_censors()
        working_memory = await self.memory.episodes.working_memory(session_id)
        return render_turn_context(self.identity_prompt, censors, frame, working_memory)

    async def _match_frame(self, user_input: str) -> tuple[FrameSelection, FrameSpec]:
        selection = await _attempt("frame selection", lambda: self.frames.match(user_input), None)
        if selection is None:
            selection = FrameSelection.from_spec(
                _CONVERSATION, confidence=0.0, match_method="default"
            )
        return selection, selection.spec()

    async def _active_censors(self) -> list[str]:
        no_censors: list[str] = []
        return await _attempt(
            "censor recall", self.memory.censors.active_censor_triggers, no_censors
        )

    async def _count_frame(
        self, matched: asyncio.Task[tuple[FrameSelection, FrameSpec]]
    ) -> FrameSelection:
        selection, _ = await matched
        if selection.node_id is None:  # not a Frame node (the fallback): nothing to count
            return selection
        return await _attempt("frame use count", lambda: self.frames.count(selection), selection)

    async def _open_decision(
        self,
        session_id: str,
        user_input: str,
        matched: asyncio.Task[tuple[FrameSelection, FrameSpec]],
        started: asyncio.Task[str | None],
    ) -> str | None:
        _, frame = await matched
        if not self.decide or frame.name not in DELIBERATE_FRAMES:
            return None
        episode_id = await started  # the decision goes IN_EPISODE: it waits for the episode
        return await _attempt(
            "deliberation start",
            lambda: open_decision(self.memory, session_id, user_input, frame, episode_id),
            None,
        )

    async def _build_context(
        self,
        session_id: str,
        user_input: str,
        matched: asyncio.Task[tuple[FrameSelection, FrameSpec]],
    ) -> str:
        _, frame = await matched
        task = plain_text(user_input, _TASK_CHARS)

        async def update() -> None:
            await _attempt(
                "working memory update",
                lambda: self.memory.episodes.update_working_memory(
                    session_id, current_task=task, current_frame=frame.name
                ),
                None,
            )

        async def build() -> str | None:
            return await _attempt(
                "context build", lambda: self.context_builder(user_input, frame, session_id), None
            )

        if reads_working_memory(self.context_builder):
            await update()
            prompt = await build()
        else:
            # The build goes on at once, the update beside it once the build first waits.
            async with asyncio.TaskGroup() as both:
                both.create_task(update())
                prompt = await build()
        if prompt is None:
            prompt = render_turn_context(self.identity_prompt, [], frame, None)
        return prompt

    async def _learn(self, decision_id: str, assessment: Assessment, result: TurnResult) -> None:
        decision = await self.memory.learning.decision(decision_id)
        if decision is None:
            return
        success = assessment.outcome is EpisodeOutcome.SUCCESS
        error = next((e.text for e in assessment.errors), None)
        failure_type = None
        if not success and error is not None:
            from cognition.monitor import analyze_failure  # a turn's end only

            failure_type = analyze_failure(result.response_text, error, None).failure_type.value
        # Learned before finalizing, so calibration sees the confidence the
        # turn was planned with, not the one its outcome gives it afterwards.
        await self.learner.learn(decision, success=success, error=error, failure_type=failure_type)
