"""One JSON call's conversation: the question, the reply read, one repair if it was unusable.

:meth:`cognition.llm.LLMClient.complete_json` sends each request; this module
keeps the messages, reads each reply into the schema, quotes what was wrong
in the repair request, and sums the costs of every request into the one
:class:`~cognition.llm_reply.LLMReply` the step records.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from pydantic import BaseModel

from cognition.llm_format import ReplyFormat
from cognition.llm_reply import LLMReply, parse_reply, repair_prompt, reply_parts
from graph.models import new_id

# The client's own logger: one logging setting covers every line a call writes.
log = logging.getLogger("cognition.llm")

T = TypeVar("T", bound=BaseModel)

Send = Callable[[list[ChatCompletionMessageParam]], Awaitable[tuple[ChatCompletion, ReplyFormat]]]
"""Sends the conversation so far as one request; the completion and the format it went in."""


class RequestRejected(Exception):
    """The endpoint refused this one request (400, 413, 422) but is otherwise up."""


async def ask_json(
    send: Send,
    *,
    system: str,
    user: str,
    schema: type[T],
    step: str,
    model: str,
    tries: int,
) -> LLMReply[T]:
    """Ask until a reply fits ``schema``, at most ``tries`` requests; never raises for a reply.

    ``send`` makes each request and raises :class:`RequestRejected` for one the
    endpoint refuses, which ends the call with that error; anything else it
    raises passes through. ``model`` is named in the reply unless the endpoint
    names the model that served it.
    """
    talk = _Conversation(
        schema,
        step,
        model,
        [{"role": "system", "content": system}, {"role": "user", "content": user}],
    )
    while talk.attempts < tries:
        talk.attempts += 1
        try:
            completion, sent_as = await send(talk.messages)
        except RequestRejected as exc:
            talk.error = str(exc)
            break
        if talk.read(completion, sent_as):
            break
    if talk.value is None:
        log.info("%s: no usable reply after %d attempt(s)", step, talk.attempts)
    return talk.reply()


@dataclass
class _Conversation(Generic[T]):
    """The messages of one call so far, the last reply and what every request cost."""

    schema: type[T]
    step: str
    model: str
    messages: list[ChatCompletionMessageParam]
    call_id: str = field(default_factory=new_id)
    started: float = field(default_factory=time.perf_counter)
    raw: str = ""
    error: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 0
    sent_as: ReplyFormat | None = None
    value: T | None = None

    def read(self, completion: ChatCompletion, sent_as: ReplyFormat) -> bool:
        """Take one reply and its costs; True when it fits, else the repair request is added."""
        self.sent_as = sent_as
        self.raw, served_by, used_in, used_out = reply_parts(completion)
        self.model = served_by or self.model
        self.prompt_tokens += used_in
        self.completion_tokens += used_out
        self.value, self.error = parse_reply(self.raw, self.schema)
        if self.value is not None:
            return True
        log.debug("%s: reply %d unusable: %s", self.step, self.attempts, self.error)
        self.messages += [
            {"role": "assistant", "content": self.raw},
            {"role": "user", "content": repair_prompt(self.error, self.schema)},
        ]
        return False

    def reply(self) -> LLMReply[T]:
        """The call as the step records it: the value or the last error, and the summed costs."""
        return LLMReply(
            value=self.value,
            raw=self.raw,
            model=self.model,
            latency_ms=(time.perf_counter() - self.started) * 1000,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            attempts=self.attempts,
            error=None if self.value is not None else self.error,
            call_id=self.call_id,
            reply_format=self.sent_as,
        )
