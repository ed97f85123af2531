"""Whether the LLM endpoint answers, and how long to leave it alone when it does not.

:class:`EndpointHealth` is the backoff ledger behind :class:`cognition.llm.LLMClient`:
a failure starts a delay taken from ``settings.health_backoff_s`` (escalating
with each failure in a row, reset by any success), during which the client
answers ``healthy() == False`` and refuses requests without network I/O.
:meth:`EndpointHealth.check` is the health check itself: ``GET /models``
within a short timeout. A timeout there means busy, not dead, and starts no
backoff.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import openai

from cognition.llm_reply import describe_error
from cognition.llm_state import LLMState

__all__ = ["HEALTH_TIMEOUT_S", "EndpointHealth"]

log = logging.getLogger(__name__)

# A health check should answer quickly or not at all; the full request timeout
# (60 s by default, sized for generation) would stall whoever is asking.
HEALTH_TIMEOUT_S = 5.0


class EndpointHealth:
    """The endpoint's failures in a row and when it may be asked again.

    ``delays`` are the escalating backoffs (seconds); ``clock`` is monotonic
    seconds; ``state`` is the client's :class:`LLMState`, kept current here.
    """

    def __init__(
        self, delays: Sequence[float], clock: Callable[[], float], state: LLMState
    ) -> None:
        self._delays = tuple(delays)
        self._clock = clock
        self._state = state
        self._failures = 0
        self._retry_at: float | None = None

    @property
    def backing_off(self) -> bool:
        """Whether a recent failure still suppresses requests."""
        return self._retry_at is not None and self._clock() < self._retry_at

    def failed(self, reason: str) -> None:
        """Record a failure and start (or climb) the backoff, once per outage."""
        if self.backing_off:
            # Concurrent requests failing in one outage climb the ladder once.
            return
        delays = self._delays
        delay = delays[min(self._failures, len(delays) - 1)] if delays else 0.0
        self._failures += 1
        self._retry_at = self._clock() + delay
        self._state.answers, self._state.last_error = False, reason
        log.warning("LLM endpoint unhealthy (%s); next try in %.0f s", reason, delay)

    def answered(self) -> None:
        """Record a success: the backoff ends and the ladder starts again from the bottom."""
        if self._failures:
            log.info("LLM endpoint healthy again")
        self._failures = 0
        self._retry_at = None
        self._state.answers, self._state.last_error = True, None

    async def check(self, client: openai.AsyncOpenAI, limit_s: float) -> bool:
        """Whether the endpoint lists a model within ``limit_s``; ``False`` while backing off."""
        if self.backing_off:
            return False
        try:
            async with asyncio.timeout(limit_s):
                # Untyped on purpose: the SDK's page model raises AttributeError
                # on a body that is not an object, and a health check must not.
                listing = await client.get("/models", cast_to=object, options={"timeout": limit_s})
        except (openai.APITimeoutError, TimeoutError):
            # Busy, not dead: a local server generating a long reply does not
            # answer /models until it is done, and backing off would make every
            # request after this one fail at once.
            self._state.last_error = "health check timed out (busy generating?)"
            return False
        except (openai.OpenAIError, ValueError) as exc:
            self.failed(f"health check failed: {describe_error(exc)}")
            return False
        models = listing.get("data") if isinstance(listing, dict) else None
        if not isinstance(models, list) or not models:
            self.failed("health check failed: the endpoint lists no model")
            return False
        first = models[0].get("id") if isinstance(models[0], dict) else None
        self._state.served_model = first if isinstance(first, str) and first else None
        self.answered()
        return True
