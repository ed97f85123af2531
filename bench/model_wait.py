"""A model bench asks the model or stops: it never records a failure the model was not asked for.

When the endpoint stops answering (paused, restarted, out of memory), the LLM
client raises :class:`~cognition.errors.LLMUnavailableError` and backs off,
and during the backoff it answers every request itself, without sending it. A
bench that took that for the model's failure would count tasks nobody asked
(``bench.lessons`` once recorded 41 of them after a two-minute stall). So a
bench asks through :func:`ask_model`: on such an error it waits for the
endpoint (:meth:`cognition.llm.LLMClient.healthy`) and asks again; past
``patience_s`` of waiting it raises :class:`ModelStalled`, which stops the
run with the reason instead of filling its tables.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient

T = TypeVar("T")
PATIENCE_S = 900.0
"""How long a bench waits for a model that stopped answering before it stops (15 minutes)."""
POLL_S = 2.0


class ModelStalled(RuntimeError):
    """The model endpoint did not answer within the bench's patience: the run stops."""


async def ask_model(
    llm: LLMClient,
    ask: Callable[[], Awaitable[T]],
    *,
    patience_s: float = PATIENCE_S,
    on_retry: Callable[[LLMUnavailableError], None] | None = None,
) -> T:
    """``ask()``'s answer; when the endpoint is down, the same question once it is back.

    ``on_retry`` hears of each request that failed and is asked again (a bench
    counts them). :class:`ModelStalled` after ``patience_s`` without an answer.
    """
    deadline: float | None = None  # from the first failure: an endpoint that answers its
    # health check but fails every request is not waited for forever either
    while True:
        try:
            return await ask()
        except LLMUnavailableError as exc:
            if on_retry is not None:
                on_retry(exc)
            now = time.monotonic()
            deadline = now + patience_s if deadline is None else deadline
            await wait_for_model(llm, max(0.0, deadline - now), why=str(exc), of=patience_s)


async def wait_for_model(
    llm: LLMClient,
    patience_s: float,
    *,
    why: str = "",
    poll_s: float = POLL_S,
    of: float | None = None,
) -> None:
    """Return once the endpoint answers its health check; :class:`ModelStalled` when
    ``patience_s`` has passed first (``of``: the whole patience, for the message)."""
    deadline = time.monotonic() + patience_s
    while time.monotonic() >= deadline or not await llm.healthy():
        if time.monotonic() >= deadline:
            raise ModelStalled(
                f"the model endpoint did not answer for {of or patience_s:.0f} s ({why}); "
                "stopped, rather than count as failed the tasks the model was never asked"
            )
        await asyncio.sleep(min(poll_s, max(0.0, deadline - time.monotonic())))
