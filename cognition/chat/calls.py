"""A tool call's outcome counts when it happens, not when the turn ends (issue 27).

Retrying the same failing call inside one turn is the loop an agent falls
into most. So the runtime reports each call as it ends: a success adds to
the call's record, a non-transient failure adds to it and files or fires
the call's censor at once: ``warn`` the first time, ``block`` the second
(in the same turn or later), so the third is denied by the gate before it
runs. A call whose record is mostly success (:func:`~cognition.learn.learner.works_here`)
stays a warning however often it fails. A call is known by its key
(:mod:`cognition.monitor.calls`): the tool and its whole input, normalised.
"""

from __future__ import annotations

from collections.abc import Mapping

from cognition.learn.learner import CensorBook, works_here
from cognition.monitor.assess import CENSOR_ERROR_CHARS, is_transient
from cognition.monitor.calls import CALL_CONFIDENCE, call_key, call_record_key, describe_call
from cognition.text import plain_text
from graph.models import Censor
from graph.store.learning import LearningStore


def call_trigger(tool_name: str | None, tool_input: Mapping[str, object], error: str) -> str:
    """The censor's trigger for a failed call: the whole call described, and its error."""
    caused = plain_text(error, CENSOR_ERROR_CHARS)
    return f"Avoid using {describe_call(tool_name, tool_input)} — caused: {caused}"


class ToolCalls:
    """Counts tool calls' outcomes as they happen: records, and censors for failures."""

    def __init__(self, store: LearningStore, censors: CensorBook) -> None:
        self.store = store
        self.censors = censors

    async def succeeded(self, tool_name: str | None, tool_input: Mapping[str, object]) -> None:
        """Count a success in the call's record."""
        key = call_record_key(call_key(tool_name, tool_input))
        await self.store.update_pattern(key, success=True, confidence=CALL_CONFIDENCE)

    async def failed(
        self,
        tool_name: str | None,
        tool_input: Mapping[str, object],
        error: str,
        *,
        episode_id: str | None = None,
    ) -> Censor | None:
        """Count a failure; the call's censor filed or fired (None for a transient error).

        A transient error (a timeout, a rate limit) says nothing about the call:
        it is neither counted nor censored.
        """
        if not error.strip() or is_transient(error):
            return None
        key = call_key(tool_name, tool_input)
        record = await self.store.update_pattern(
            call_record_key(key), success=False, confidence=CALL_CONFIDENCE
        )
        return await self.censors.record_failure(
            call_trigger(tool_name, tool_input, error),
            reason=error,
            episode_id=episode_id,
            works_here=works_here(record),
            call_key=key,
        )
