"""The internal executor: Python async functions registered by name."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from cognition.act.executors.base import (
    EXCERPT_CHARS,
    ExecutionRequest,
    ExecutionResult,
    describe,
    failure,
)
from cognition.text import clip
from graph.settings import ExecutorSettings

log = logging.getLogger(__name__)

# The key of ``ExecutionRequest.params`` that names an internal function.
FUNCTION_PARAM = "function"

InternalFunction = Callable[[ExecutionRequest], Awaitable[object]]
"""An async function run by :class:`InternalExecutor`; what it returns becomes the output."""


class InternalExecutor:
    """Runs a Python async function registered by name.

    ``request.params["function"]`` names the function; it is called with the
    request, and what it returns (``str()`` of it, ``None`` as empty) is the
    output. An exception it raises becomes a failed result.
    """

    name = "internal"

    def __init__(self, settings: ExecutorSettings) -> None:
        self._settings = settings
        self._functions: dict[str, InternalFunction] = {}

    def register(self, name: str, fn: InternalFunction) -> None:
        """Make ``fn`` callable as ``name``; a name can be registered once."""
        if not name:
            raise ValueError("an internal function needs a non-empty name")
        if name in self._functions:
            raise ValueError(f"an internal function named {name!r} is already registered")
        self._functions[name] = fn

    def registered(self) -> list[str]:
        """The names of the registered functions, sorted."""
        return sorted(self._functions)

    def command_for(self, request: ExecutionRequest) -> list[str]:
        """``["internal", <function name>]`` for the record."""
        return ["internal", str(request.params.get(FUNCTION_PARAM, "<missing>"))]

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Call the function ``request.params["function"]`` names, within the timeout."""
        command = self.command_for(request)
        name = request.params.get(FUNCTION_PARAM)
        fn = self._functions.get(name) if isinstance(name, str) else None
        if fn is None:
            known = ", ".join(self.registered()) or "none"
            return failure(
                command,
                f"no internal function named {name!r} is registered (registered: {known})",
            )
        timeout_s = request.timeout_s or self._settings.timeout_s
        started = time.monotonic()
        deadline = asyncio.timeout(timeout_s)
        try:
            async with deadline:
                value = await fn(request)
        except TimeoutError as exc:
            # A TimeoutError the function raised itself is its own failure.
            timed_out = deadline.expired()
            error = f"timed out after {timeout_s:g} s" if timed_out else describe(exc)
            return failure(
                command, error, duration_s=time.monotonic() - started, timed_out=timed_out
            )
        except Exception as exc:
            log.warning("internal function %r failed", name, exc_info=True)
            return failure(command, describe(exc), duration_s=time.monotonic() - started)
        output = "" if value is None else str(value)
        return ExecutionResult(
            success=True,
            return_code=None,
            output=clip(output, EXCERPT_CHARS, keep_tail=True),
            error=None,
            duration_s=time.monotonic() - started,
            timed_out=False,
            command=command,
        )
