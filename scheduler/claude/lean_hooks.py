"""The hooks answered over the agent's graph alone, and the dispatch from an event to its handler.

:class:`LeanHooks` answers the events the table marks ``lean``
(:data:`scheduler.claude.events.HOOK_EVENTS`): a session's start and the hooks
of every tool call, which load neither pydantic, the node models nor the
cognitive layer (issue 27). A hook working alone builds it over its own
driver; :class:`scheduler.claude.session.ClaudeSession` extends it with the
session's other events, so the daemon answers the lean ones with the same
code. :func:`answer_event` finds an event's handler by the name the table
gives it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scheduler.claude.events import BY_NAME
from scheduler.claude.session_start import start_session
from scheduler.claude.tool_hooks import call_succeeded, gate_call

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from collections.abc import Awaitable, Callable
    from pathlib import Path

    from cognition.sense.history import HistoryLimits
    from graph.settings import ClaudeSettings
    from graph.settings_lean import HookClaude
    from graph.store.lean_memory import LeanMemory
    from scheduler.claude.payload import HookAnswer, HookInput


class LeanHooks:
    """The handlers of the lean events, over one agent's lean stores (built once, by ``memory``)."""

    def __init__(
        self,
        memory: LeanMemory,
        settings: ClaudeSettings | HookClaude,
        *,
        history: tuple[Path, HistoryLimits] | None = None,
        project: str | None = None,
    ) -> None:
        """``history``: the repository's root and the ``history`` settings, to read its new
        commits at a session's start (a hook working alone; the daemon reads them in a job of
        its own, as HEAD moves). ``project``: whose decisions the commits' messages state (none
        are read from them when None)."""
        self.memory = memory
        self.project = project
        self.settings = settings
        self.history = history

    async def session_start(self, payload: HookInput) -> HookAnswer:
        """Start the episode; the answer: :func:`scheduler.claude.session_start.start_session`.

        Then, with ``history``, the commits new since the last read are kept, and the
        decisions their messages state, within its budget (``history.session_start_budget_s``):
        the next prompt can recall them.
        """
        memory = self.memory
        answer = await start_session(memory.session_start, memory.audit, payload, self.settings)
        if self.history is not None:
            from cognition.sense.history import HistoryReader  # a session's start only
            from graph.settings_lean import git_environment

            root, limits = self.history
            then = None
            if self.project is not None:
                from cognition.decisions.keep import DecisionKeeper

                then = DecisionKeeper(memory.team_decisions(self.project)).from_commits
            budget = limits.session_start_budget_s
            reader = HistoryReader(root, git_environment(), limits, budget, then=then)
            await reader.take(memory.commits)
        return answer

    async def pre_tool(self, payload: HookInput) -> HookAnswer:
        """The censor gate (:func:`scheduler.claude.tool_hooks.gate_call`)."""
        return await gate_call(self.memory.calls, payload)

    async def tool_succeeded(self, payload: HookInput) -> HookAnswer:
        """The call's result kept, its success counted (:func:`~scheduler.claude.tool_hooks.
        call_succeeded`)."""
        return await call_succeeded(self.memory.calls, payload, self.settings)


def handler_of(handlers: object, event: str) -> Callable[[HookInput], Awaitable[HookAnswer]]:
    """The method of ``handlers`` that answers ``event``, as the table names it.

    ``LookupError`` for an event not in the table or a handler ``handlers``
    lacks (a lean event's on :class:`LeanHooks`, any event's on
    ``ClaudeSession``; a test checks both).
    """
    spec = BY_NAME.get(event)
    if spec is None:
        raise LookupError(f"no such hook event: {event[:50]!r}")
    handler = getattr(handlers, spec.handler, None)
    if handler is None:
        raise LookupError(f"{type(handlers).__name__} has no handler {spec.handler!r} for {event}")
    return handler  # type: ignore[no-any-return]  # the table names an async method


async def answer_event(handlers: object, event: str, payload: HookInput) -> HookAnswer:
    """``event`` answered by its handler on ``handlers``."""
    return await handler_of(handlers, event)(payload)
