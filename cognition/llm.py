"""The client the reasoner thinks through: any OpenAI-compatible endpoint.

:class:`LLMClient` asks for JSON, validates it with a pydantic model, and gives
an invalid reply exactly one repair attempt (:mod:`cognition.llm_repair`). A
reply that is still unusable comes back as an :class:`LLMReply` with
``value=None`` and ``error`` set; it never raises. An endpoint that cannot be
reached (refused, 5xx, 429) raises :class:`LLMUnavailableError` and starts a
backoff (:mod:`cognition.llm_health`), during which :meth:`LLMClient.healthy`
answers ``False`` and :meth:`LLMClient.complete_json` raises at once, both
without network I/O, so the rules reasoner takes over without every step
waiting out a timeout.

A slow model is a normal model: each request's timeout follows its prompt
and ``max_tokens`` (:func:`cognition.llm_pacing.request_timeout`), and a
request that times out raises :class:`LLMTimeoutError` for itself alone: it
starts no backoff, so the requests after it are still sent. A health check
that times out (a llama.cpp server busy generating does not answer
``/models``) says ``False`` without a backoff either.

The reply format is negotiated (:mod:`cognition.llm_format`): the step's
schema as ``json_schema`` first, then down the ladder to no format at all;
the first one the endpoint accepts is remembered for the run and shown in
:attr:`LLMClient.state` (:mod:`cognition.llm_state`). Requests go one at a
time, spaced by ``settings.min_interval_s``, decisions before background work
(:mod:`cognition.llm_pacing`).

Prompts and replies are never logged above DEBUG, and the API key only ever
reaches the SDK.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TypeVar

import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from pydantic import BaseModel

from cognition.errors import LLMBusyError, LLMTimeoutError, LLMUnavailableError
from cognition.llm_format import (
    ReplyFormat,
    format_refused,
    formats_from,
    response_format,
    step_header,
    wire_schema,
)
from cognition.llm_health import HEALTH_TIMEOUT_S, EndpointHealth
from cognition.llm_pacing import Priority, RequestPacer, request_timeout
from cognition.llm_repair import RequestRejected, ask_json
from cognition.llm_reply import LLMReply, TextReply, describe_error, reply_parts
from cognition.llm_state import LLMState
from graph.settings import LLMSettings

__all__ = ["LLMClient", "LLMReply", "LLMState", "TextReply"]

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

# The format probe only needs the server to accept the request, not a full answer.
_PROBE_MAX_TOKENS = 8


class _Probe(BaseModel):
    ok: bool


@dataclass(frozen=True, slots=True)
class _Request:
    """What one :meth:`LLMClient.complete_json` call sends with every attempt."""

    step: str
    schema_name: str
    schema: dict[str, object]
    priority: Priority
    max_tokens: int | None
    temperature: float | None = None


class LLMClient:
    """Asks an OpenAI-compatible endpoint for JSON that fits a pydantic model.

    ``clock`` (monotonic seconds) times the health backoff; tests pass their own.
    """

    def __init__(self, settings: LLMSettings, *, clock: Callable[[], float] | None = None) -> None:
        self._settings = settings
        self._clock = clock if clock is not None else time.monotonic
        self._client: openai.AsyncOpenAI | None = None
        # Where the format ladder starts; moves down (for the run) when the
        # endpoint refuses a format and accepts a lower one. A setting other
        # than "auto" pins the format and nothing is negotiated.
        configured = settings.response_format
        self._negotiate = configured == "auto"
        self._format: ReplyFormat = "json_schema" if configured == "auto" else configured
        self._format_confirmed = not self._negotiate
        self._schemas: dict[type[BaseModel], dict[str, object]] = {}
        self._pacer = RequestPacer(settings.min_interval_s)
        self.state = LLMState(base_url=settings.base_url, clock=self._clock)
        self._health = EndpointHealth(settings.health_backoff_s, self._clock, self.state)
        if not self._negotiate:
            self.state.reply_format = self._format

    async def start(self) -> None:
        """Create the HTTP client. No request is made; call :meth:`healthy` for that."""
        if self._client is not None:
            return
        self._client = openai.AsyncOpenAI(
            base_url=self._settings.base_url,
            api_key=self._settings.api_key.get_secret_value(),
            # Each request passes its own timeout; this bounds anything else.
            timeout=max(self._settings.timeout_ceiling_s, self._settings.timeout_s),
            # The health backoff is the retry policy; SDK retries would multiply
            # the time a dead endpoint costs each step by up to three.
            max_retries=0,
        )

    async def close(self) -> None:
        """Close the HTTP client and its connections. Safe to call twice."""
        client, self._client = self._client, None
        if client is not None:
            await client.close()

    async def __aenter__(self) -> LLMClient:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def turn(self, priority: Priority = "background") -> AsyncIterator[openai.AsyncOpenAI]:
        """The SDK client for a request of another kind (embeddings), in this client's one turn."""
        client = self._require_client()
        async with self._pacer.turn(priority):
            self.state.requests_sent += 1
            yield client

    @property
    def waiting_requests(self) -> int:
        """How many requests wait for their turn (one is sent at a time)."""
        return self._pacer.waiting

    @property
    def backing_off(self) -> bool:
        """Whether a recent failure still suppresses requests."""
        return self._health.backing_off

    async def healthy(self) -> bool:
        """Whether the endpoint lists at least one model.

        After a failure, further calls return ``False`` without any request
        until the next delay of ``settings.health_backoff_s`` has passed; the
        delays escalate with each failure and reset on success.
        """
        client = self._require_client()
        return await self._health.check(client, min(self._settings.timeout_s, HEALTH_TIMEOUT_S))

    async def probe(self) -> LLMState:
        """Check health and, if the endpoint answers, negotiate the reply format now.

        One tiny request (a few tokens) so the banner can say which format is
        accepted before the first decision. Never raises for the endpoint's sake.
        """
        if await self.healthy() and self.state.reply_format is None:
            # A failure is recorded in the state by the failure itself.
            with contextlib.suppress(LLMUnavailableError):
                await self.complete_json(
                    system="Reply with JSON.",
                    user='Reply {"ok": true}.',
                    schema=_Probe,
                    step="probe",
                    max_tokens=_PROBE_MAX_TOKENS,
                    repair=False,
                )
        return self.state

    async def complete_json(
        self,
        *,
        system: str,
        user: str,
        schema: type[T],
        step: str,
        priority: Priority = "background",
        max_tokens: int | None = None,
        repair: bool = True,
        temperature: float | None = None,
    ) -> LLMReply[T]:
        """Ask for a JSON object fitting ``schema`` and validate the reply.

        The request carries ``schema`` in the negotiated ``response_format``.
        An unparsable or invalid reply gets one repair request quoting the
        error (unless ``repair`` is false); if that fails too, the result has
        ``value=None`` and ``error`` set. A request the endpoint refuses as
        malformed or too long (400, 413, 422) in every format also comes back
        that way. ``priority="decision"`` is served before waiting background
        requests; ``max_tokens`` and ``temperature`` override the settings for
        this call.

        Raises :class:`LLMUnavailableError` when the endpoint cannot be
        reached, sends something that is not a chat completion, or answers
        5xx, 429 or another 4xx (a wrong key, an unknown model); and at once,
        without a request, while an earlier failure's backoff lasts. Raises
        :class:`LLMTimeoutError` (a subclass, no backoff) when this request
        outlives its timeout, and :class:`LLMBusyError` (no backoff) when a
        ``"decision"`` waited ``decision_wait_s`` for its turn.
        """
        client = self._require_client()
        if self.backing_off:
            raise LLMUnavailableError(f"{step}: LLM endpoint unavailable (backing off)")
        request = _Request(
            step, schema.__name__, self._wire(schema), priority, max_tokens, temperature
        )

        async def send(
            messages: list[ChatCompletionMessageParam],
        ) -> tuple[ChatCompletion, ReplyFormat]:
            return await self._create(client, messages, request)

        return await ask_json(
            send,
            system=system,
            user=user,
            schema=schema,
            step=step,
            model=self._settings.model,
            tries=2 if repair else 1,
        )

    async def complete_text(
        self,
        *,
        system: str | None,
        user: str,
        step: str,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> TextReply:
        """Ask for free text, as a model writes code: no reply format, no repair.

        ``system=None`` sends the user message alone (a model's own plain form).
        A request the endpoint refuses (400, 413, 422) comes back with ``error``
        set; everything else raises as :meth:`complete_json` does.
        """
        client = self._require_client()
        if self.backing_off:
            raise LLMUnavailableError(f"{step}: LLM endpoint unavailable (backing off)")
        messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": user}]
        if system is not None:
            messages.insert(0, {"role": "system", "content": system})
        request = _Request(step, "text", {}, "background", max_tokens, temperature)
        started = time.perf_counter()
        try:
            completion = await self._send(client, messages, request, "none")
        except openai.APIStatusError as exc:
            if exc.status_code not in (400, 413, 422):
                raise self._unavailable(step, exc) from None
            took = (time.perf_counter() - started) * 1000
            return TextReply("", self._settings.model, took, 0, 0, describe_error(exc))
        raw, served_by, used_in, used_out = reply_parts(completion)
        took = (time.perf_counter() - started) * 1000
        return TextReply(raw, served_by or self._settings.model, took, used_in, used_out)

    def _wire(self, schema: type[BaseModel]) -> dict[str, object]:
        wired = self._schemas.get(schema)
        if wired is None:
            wired = self._schemas[schema] = wire_schema(schema)
        return wired

    async def _create(
        self,
        client: openai.AsyncOpenAI,
        messages: list[ChatCompletionMessageParam],
        request: _Request,
    ) -> tuple[ChatCompletion, ReplyFormat]:
        """One chat request in the remembered format, walking down the ladder if refused.

        Until a format has been accepted once, a refusal tries the next one
        and the first accepted is remembered for the run. A refusal is a 400
        or 422, or a 500: llama-cpp-python's server answers an unknown format
        type with 500. Once a format is confirmed, a 400/413/422 is this
        request's problem (too long, say), and any other status means the
        endpoint is unavailable.
        """
        formats = formats_from(self._format) if not self._format_confirmed else (self._format,)
        failure: openai.APIStatusError | None = None
        for fmt in formats:
            try:
                completion = await self._send(client, messages, request, fmt)
            except openai.APIStatusError as exc:
                failure = exc
                if self._format_confirmed or not format_refused(exc):
                    break
                log.debug("%s: refused with format %s: %s", request.step, fmt, describe_error(exc))
                continue
            if not self._format_confirmed:
                log.info("LLM endpoint accepts reply format %s", fmt)
                self._format, self._format_confirmed = fmt, True
                self.state.reply_format = fmt
            return completion, fmt
        assert failure is not None  # formats is never empty
        if failure.status_code in (400, 413, 422):
            raise RequestRejected(f"request rejected: {describe_error(failure)}") from None
        raise self._unavailable(request.step, failure) from None

    async def _send(
        self,
        client: openai.AsyncOpenAI,
        messages: list[ChatCompletionMessageParam],
        request: _Request,
        fmt: ReplyFormat,
    ) -> ChatCompletion:
        """One request; raises ``APIStatusError`` for the caller to judge, else unavailable."""
        settings = self._settings
        body = response_format(fmt, request.schema_name, request.schema)
        max_tokens = request.max_tokens or settings.max_tokens
        prompt_chars = sum(len(str(m.get("content") or "")) for m in messages)
        budget = request_timeout(settings, prompt_chars, max_tokens)
        try:
            async with contextlib.AsyncExitStack() as turn:
                await self._wait_for_turn(turn, request)
                self.state.requests_sent += 1
                # The SDK's timeout is per read; this one bounds a reply that trickles in.
                async with asyncio.timeout(budget):
                    completion = await client.chat.completions.create(
                        model=settings.model,
                        messages=messages,
                        max_tokens=max_tokens,
                        temperature=(
                            settings.temperature
                            if request.temperature is None
                            else request.temperature
                        ),
                        response_format=body if body is not None else openai.omit,  # type: ignore[arg-type]
                        extra_headers=step_header(request.step),
                        timeout=budget,
                    )
        except openai.APIStatusError:
            raise
        except (openai.APITimeoutError, TimeoutError):
            # One slow request is not a dead endpoint: no backoff, so the next
            # request (and every one queued behind this) is still sent.
            log.warning(
                "%s: no reply within %.0f s; the endpoint is not marked down", request.step, budget
            )
            raise LLMTimeoutError(
                f"{request.step}: LLM endpoint {settings.base_url} timed out after {budget:.0f} s"
            ) from None
        except (openai.OpenAIError, ValueError) as exc:
            # ValueError: the SDK lets json.JSONDecodeError through for a 200
            # whose body is not JSON (an HTML page on the wrong port).
            raise self._unavailable(request.step, exc) from None
        if not isinstance(completion, ChatCompletion):
            # A server that ignores the protocol (an HTML page, plain text)
            # is not one we can reason with.
            raise self._unavailable(request.step, TypeError("reply is not a chat completion"))
        self._health.answered()
        return completion

    async def _wait_for_turn(self, turn: contextlib.AsyncExitStack, request: _Request) -> None:
        """Enter the pacer's turn; a decision gives up after ``decision_wait_s``.

        A background request in flight cannot be interrupted (a local server
        keeps generating anyway), so rather than let the decision loop stall
        behind it, the decision is handed to the rules.
        """
        if request.priority != "decision":
            await turn.enter_async_context(self._pacer.turn(request.priority))
            return
        wait = self._settings.decision_wait_s
        try:
            async with asyncio.timeout(wait):
                await turn.enter_async_context(self._pacer.turn(request.priority))
        except TimeoutError:
            raise LLMBusyError(
                f"{request.step}: waited {wait:.0f} s for background LLM work; the rules decide"
            ) from None

    def _unavailable(self, step: str, exc: BaseException) -> LLMUnavailableError:
        reason = describe_error(exc)
        self._health.failed(f"{step}: {reason}")
        return LLMUnavailableError(
            f"{step}: LLM endpoint {self._settings.base_url} unavailable: {reason}"
        )

    def _require_client(self) -> openai.AsyncOpenAI:
        if self._client is None:
            raise RuntimeError("LLMClient.start() has not been called")
        return self._client
