"""The guards of a chat turn's steps (seed 004): a failed step never crashes the turn.

:func:`attempt_step` runs one step of :class:`cognition.chat.layer.CognitiveLayer`
and falls back when it fails; :func:`assess_turn` assesses a finished turn,
judging the errors alone when the runtime's arguments cannot be read.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from cognition.chat.turns import ToolResult, TurnResult
from cognition.monitor import Assessment, ToolError, assess

# The layer's steps: logged under the layer's name, where operators look for them.
log = logging.getLogger("cognition.chat.layer")
T = TypeVar("T")


def assess_turn(result: TurnResult, tools: Sequence[ToolResult]) -> Assessment:
    """The turn's assessment from its response, the failed ``tools`` and its error."""
    tool_errors = [ToolError(t.error, t.tool_name, t.arguments) for t in tools if t.error]
    try:
        return assess(result.response_text, tool_errors, result.error)
    except Exception as exc:  # arguments are the runtime's data; judge the errors alone
        log.warning("assessment failed, retried without arguments: %s", type(exc).__name__)
        return assess(result.response_text, [e.error for e in tool_errors], result.error)


async def attempt_step(what: str, step: Callable[[], Awaitable[T]], fallback: T) -> T:
    """Run one step of a turn; on any failure log it and go on with ``fallback``."""
    try:
        # Called inside the try: a plugged-in builder may fail before it awaits.
        return await step()
    except Exception as exc:  # seed 004: a failed step never crashes the turn
        # Graph errors name the query, never its parameters, so this logs no user data.
        log.warning("%s failed, going on without it: %s: %s", what, type(exc).__name__, exc)
        return fallback
