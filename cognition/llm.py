"""The client the reasoner thinks through: any OpenAI-compatible endpoint.

:class:`LLMClient` asks for JSON, validates it with a pydantic model, and gives
an invalid reply exactly one repair attempt. A reply that is still unusable
comes back as an :class:`LLMReply` with ``value=None`` and ``error`` set; it
never raises. An endpoint that cannot be reached (refused, timed out, 5xx, 429)
raises :class:`LLMUnavailableError` and starts a backoff, during which
:meth:`LLMClient.healthy` answers ``False`` and :meth:`LLMClient.complete_json`
raises at once, both without network I/O, so the rules reasoner takes over
without every step waiting out a timeout.

Prompts and replies are never logged above DEBUG, and the API key only ever
reaches the SDK.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from pydantic import BaseModel, ValidationError

from cognition.errors import LLMUnavailableError
from graph.settings import LLMSettings

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

# A health check should answer quickly or not at all; the full request timeout
# (60 s by default, sized for generation) would stall whoever is asking.
_HEALTH_TIMEOUT_S = 5.0
# Sent on every chat request so logs and the test stub can tell steps apart.
_STEP_HEADER = "X-Nous-Step"
_ERROR_TEXT_LIMIT = 1000
_FENCE = re.compile(r"^```[A-Za-z0-9_-]*\s*\n?(.*?)\n?\s*```$", re.DOTALL)
# Reasoning models served locally (qwen3, deepseek-r1) prefix their answer with this.
_THINK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)


@dataclass(frozen=True, slots=True)
class LLMReply(Generic[T]):
    """What one step got from the model, usable or not.

    ``value`` is the validated model, or ``None`` with ``error`` saying why.
    ``raw`` is the last reply's text; ``latency_ms`` and the token counts cover
    every request the step made; ``attempts`` is 2 when the repair was used.
    """

    value: T | None
    raw: str
    model: str
    latency_ms: float
    prompt_tokens: int
    completion_tokens: int
    attempts: int
    error: str | None

    @property
    def ok(self) -> bool:
        """Whether the step produced a validated value."""
        return self.value is not None


class _Rejected(Exception):
    """The endpoint refused this one request (400, 413, 422) but is otherwise up."""


class LLMClient:
    """Asks an OpenAI-compatible endpoint for JSON that fits a pydantic model.

    ``clock`` (monotonic seconds) times the health backoff; tests pass their own.
    """

    def __init__(self, settings: LLMSettings, *, clock: Callable[[], float] | None = None) -> None:
        self._settings = settings
        self._clock = clock if clock is not None else time.monotonic
        self._client: openai.AsyncOpenAI | None = None
        self._failures = 0
        self._retry_at: float | None = None
        # Cleared when the endpoint turns out to reject response_format
        # json_object (LM Studio does), so later calls skip the wasted request.
        self._json_mode = True

    async def start(self) -> None:
        """Create the HTTP client. No request is made; call :meth:`healthy` for that."""
        if self._client is not None:
            return
        self._client = openai.AsyncOpenAI(
            base_url=self._settings.base_url,
            api_key=self._settings.api_key.get_secret_value(),
            timeout=self._settings.timeout_s,
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

    @property
    def sdk(self) -> openai.AsyncOpenAI:
        """The started SDK client, for :mod:`cognition.embeddings` (the same endpoint)."""
        return self._require_client()

    @property
    def backing_off(self) -> bool:
        """Whether a recent failure still suppresses requests."""
        return self._retry_at is not None and self._clock() < self._retry_at

    async def healthy(self) -> bool:
        """Whether the endpoint lists at least one model.

        After a failure, further calls return ``False`` without any request
        until the next delay of ``settings.health_backoff_s`` has passed; the
        delays escalate with each failure and reset on success.
        """
        client = self._require_client()
        if self.backing_off:
            return False
        timeout = min(self._settings.timeout_s, _HEALTH_TIMEOUT_S)
        try:
            async with asyncio.timeout(timeout):
                # Untyped on purpose: the SDK's page model raises AttributeError
                # on a body that is not an object, and a health check must not.
                listing = await client.get("/models", cast_to=object, options={"timeout": timeout})
        except (openai.OpenAIError, TimeoutError, ValueError) as exc:
            self._mark_unhealthy(f"health check failed: {_describe(exc)}")
            return False
        models = listing.get("data") if isinstance(listing, dict) else None
        if not isinstance(models, list) or not models:
            self._mark_unhealthy("health check failed: the endpoint lists no model")
            return False
        self._mark_healthy()
        return True

    async def complete_json(
        self,
        *,
        system: str,
        user: str,
        schema: type[T],
        step: str,
        temperature: float | None = None,
    ) -> LLMReply[T]:
        """Ask for a JSON object fitting ``schema`` and validate the reply.

        An unparsable or invalid reply gets one repair request quoting the
        error; if that fails too, the result has ``value=None`` and ``error``
        set. A request the endpoint refuses as malformed or too long (400,
        413, 422) also comes back that way.

        Raises :class:`LLMUnavailableError` when the endpoint cannot be
        reached, times out, sends something that is not a chat completion,
        or answers 5xx, 429 or another 4xx (a wrong key, an unknown model);
        and at once, without a request, while an earlier failure's backoff
        lasts. ``temperature`` left at None is the settings' temperature.
        """
        client = self._require_client()
        if self.backing_off:
            raise LLMUnavailableError(f"{step}: LLM endpoint unavailable (backing off)")
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        started = time.perf_counter()
        model, raw, error = self._settings.model, "", ""
        prompt_tokens = completion_tokens = attempts = 0
        while attempts < 2:
            attempts += 1
            try:
                completion = await self._create(client, messages, step, temperature)
            except _Rejected as exc:
                error = str(exc)
                break
            raw, served_by, used_in, used_out = _reply_parts(completion)
            model = served_by or model
            prompt_tokens += used_in
            completion_tokens += used_out
            value, error = _parse(raw, schema)
            if value is not None:
                return LLMReply(
                    value=value,
                    raw=raw,
                    model=model,
                    latency_ms=(time.perf_counter() - started) * 1000,
                    prompt_tokens=prompt_tokens,
                    completion_tokens=completion_tokens,
                    attempts=attempts,
                    error=None,
                )
            log.debug("%s: reply %d unusable: %s", step, attempts, error)
            messages += [
                {"role": "assistant", "content": raw},
                {"role": "user", "content": _repair_prompt(error, schema)},
            ]
        log.info("%s: no usable reply after %d attempt(s)", step, attempts)
        return LLMReply(
            value=None,
            raw=raw,
            model=model,
            latency_ms=(time.perf_counter() - started) * 1000,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            attempts=attempts,
            error=error,
        )

    async def _create(
        self,
        client: openai.AsyncOpenAI,
        messages: list[ChatCompletionMessageParam],
        step: str,
        temperature: float | None = None,
    ) -> ChatCompletion:
        """One chat request, retried once without ``response_format`` if refused."""
        if self._json_mode:
            try:
                return await self._send(client, messages, step, json_mode=True, temp=temperature)
            except _Rejected as exc:
                log.debug("%s: rejected with response_format, retrying without: %s", step, exc)
            completion = await self._send(client, messages, step, json_mode=False, temp=temperature)
            log.info("LLM endpoint rejects response_format json_object; asking without it")
            self._json_mode = False
            return completion
        return await self._send(client, messages, step, json_mode=False, temp=temperature)

    async def _send(
        self,
        client: openai.AsyncOpenAI,
        messages: list[ChatCompletionMessageParam],
        step: str,
        *,
        json_mode: bool,
        temp: float | None = None,
    ) -> ChatCompletion:
        settings = self._settings
        try:
            # The SDK's timeout is per read; this one bounds a reply that trickles in.
            async with asyncio.timeout(settings.timeout_s):
                completion = await client.chat.completions.create(
                    model=settings.model,
                    messages=messages,
                    max_tokens=settings.max_tokens,
                    temperature=settings.temperature if temp is None else temp,
                    response_format={"type": "json_object"} if json_mode else openai.omit,
                    extra_headers={_STEP_HEADER: _header_safe(step)},
                )
        except openai.APIStatusError as exc:
            if exc.status_code in (400, 413, 422):
                raise _Rejected(f"request rejected: {_describe(exc)}") from None
            raise self._unavailable(step, exc) from None
        except (openai.OpenAIError, TimeoutError, ValueError) as exc:
            # ValueError: the SDK lets json.JSONDecodeError through for a 200
            # whose body is not JSON (an HTML page on the wrong port).
            raise self._unavailable(step, exc) from None
        if not isinstance(completion, ChatCompletion):
            # A server that ignores the protocol (an HTML page, plain text)
            # is not one we can reason with.
            raise self._unavailable(step, TypeError("reply is not a chat completion"))
        self._mark_healthy()
        return completion

    def _unavailable(self, step: str, exc: BaseException) -> LLMUnavailableError:
        reason = _describe(exc)
        self._mark_unhealthy(f"{step}: {reason}")
        return LLMUnavailableError(
            f"{step}: LLM endpoint {self._settings.base_url} unavailable: {reason}"
        )

    def _mark_unhealthy(self, reason: str) -> None:
        if self.backing_off:
            # Concurrent requests failing in one outage climb the ladder once.
            return
        delays = self._settings.health_backoff_s
        delay = delays[min(self._failures, len(delays) - 1)] if delays else 0.0
        self._failures += 1
        self._retry_at = self._clock() + delay
        log.warning("LLM endpoint unhealthy (%s); next try in %.0f s", reason, delay)

    def _mark_healthy(self) -> None:
        if self._failures:
            log.info("LLM endpoint healthy again")
        self._failures = 0
        self._retry_at = None

    def _require_client(self) -> openai.AsyncOpenAI:
        if self._client is None:
            raise RuntimeError("LLMClient.start() has not been called")
        return self._client


def _reply_parts(completion: ChatCompletion) -> tuple[str, str | None, int, int]:
    """Content, model, prompt and completion tokens, each checked by type.

    The SDK builds its models without validation, so a server that sends the
    wrong shape yields attributes of any type; nothing here trusts them.
    """
    content: object = None
    choices: object = getattr(completion, "choices", None)
    if isinstance(choices, list) and choices:
        message = getattr(choices[0], "message", None)
        content = getattr(message, "content", None)
    model: object = getattr(completion, "model", None)
    usage: object = getattr(completion, "usage", None)
    return (
        content if isinstance(content, str) else "",
        model if isinstance(model, str) and model else None,
        _count(getattr(usage, "prompt_tokens", 0)),
        _count(getattr(usage, "completion_tokens", 0)),
    )


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _parse(raw: str, schema: type[T]) -> tuple[T | None, str]:
    """The validated value, or ``None`` and why not."""
    text = _strip_wrapping(raw)
    if not text:
        return None, "the reply was empty"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        # Models often wrap a good object in prose; try the outermost braces.
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end <= start:
            return None, f"the reply is not valid JSON: {exc}"
        try:
            data = json.loads(text[start : end + 1])
        except (ValueError, RecursionError):
            return None, f"the reply is not valid JSON: {exc}"
    try:
        return schema.model_validate(data), ""
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in e['loc']) or '(top level)'}: {e['msg']}"
            for e in exc.errors(include_url=False, include_input=False)
        ]
        return None, _clip("the JSON does not fit the schema: " + "; ".join(problems))


def _strip_wrapping(raw: str) -> str:
    text = _THINK.sub("", raw).strip()
    match = _FENCE.match(text)
    return match.group(1).strip() if match else text


def _repair_prompt(error: str, schema: type[BaseModel]) -> str:
    shape = json.dumps(schema.model_json_schema(), separators=(",", ":"))
    return (
        f"Your previous reply could not be used: {error}\n"
        f"Reply again with only the corrected JSON object, matching this JSON Schema, "
        f"with no prose and no code fences:\n{shape}"
    )


def _describe(exc: BaseException) -> str:
    if isinstance(exc, openai.APIStatusError):
        return _clip(f"HTTP {exc.status_code}: {exc.message}")
    if isinstance(exc, openai.APITimeoutError | TimeoutError):
        return "timed out"
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__
        return f"connection failed ({type(cause).__name__})" if cause else "connection failed"
    return _clip(f"{type(exc).__name__}: {exc}")


def _clip(text: str) -> str:
    return text if len(text) <= _ERROR_TEXT_LIMIT else text[: _ERROR_TEXT_LIMIT - 3] + "..."


def _header_safe(step: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.:-]", "_", step)[:100]
