"""Reading what an OpenAI-compatible endpoint sent: content, usage, JSON, errors.

Nothing here trusts the reply's shape: the SDK builds its models without
validation, so a misbehaving server can put anything anywhere.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Generic, TypeVar

import openai
from openai.types.chat import ChatCompletion
from pydantic import BaseModel, ValidationError

from cognition.llm_format import ReplyFormat

T = TypeVar("T", bound=BaseModel)

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
    ``call_id`` names this call (repair included) so the steps it produced
    can say where they came from; ``reply_format`` is the format it was sent.
    """

    value: T | None
    raw: str
    model: str
    latency_ms: float
    prompt_tokens: int
    completion_tokens: int
    attempts: int
    error: str | None
    call_id: str = ""
    reply_format: ReplyFormat | None = None

    @property
    def ok(self) -> bool:
        """Whether the step produced a validated value."""
        return self.value is not None


@dataclass(frozen=True, slots=True)
class TextReply:
    """A free-text reply (code in a fenced block, say): the text as sent, and its costs.

    ``error`` is set, and ``text`` empty, when the endpoint refused the request.
    """

    text: str
    model: str
    latency_ms: float
    prompt_tokens: int
    completion_tokens: int
    error: str | None = None


def reply_parts(completion: ChatCompletion) -> tuple[str, str | None, int, int]:
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
        count_tokens(getattr(usage, "prompt_tokens", 0)),
        count_tokens(getattr(usage, "completion_tokens", 0)),
    )


def count_tokens(value: object) -> int:
    """A token count from usage, or 0 for anything that is not a count."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def load_json(raw: str) -> tuple[object, str]:
    """The JSON value in a reply (fences, ``<think>`` and prose around it removed), or why not.

    The value is ``None`` with a reason when there is none.
    """
    text = _strip_wrapping(raw)
    if not text:
        return None, "the reply was empty"
    try:
        return json.loads(text), ""
    except (ValueError, RecursionError) as exc:
        # Models often wrap a good object in prose; try the outermost braces.
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end <= start:
            return None, f"the reply is not valid JSON: {exc}"
        try:
            return json.loads(text[start : end + 1]), ""
        except (ValueError, RecursionError):
            return None, f"the reply is not valid JSON: {exc}"


def validate(data: object, schema: type[T]) -> tuple[T | None, str]:
    """``data`` as ``schema``, or ``None`` and the validation problems in one line."""
    try:
        return schema.model_validate(data), ""
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in e['loc']) or '(top level)'}: {e['msg']}"
            for e in exc.errors(include_url=False, include_input=False)
        ]
        return None, clip_error("the JSON does not fit the schema: " + "; ".join(problems))


def parse_reply(raw: str, schema: type[T]) -> tuple[T | None, str]:
    """The validated value, or ``None`` and why not."""
    data, error = load_json(raw)
    if error:
        return None, error
    return validate(data, schema)


def _strip_wrapping(raw: str) -> str:
    text = _THINK.sub("", raw).strip()
    match = _FENCE.match(text)
    return match.group(1).strip() if match else text


def repair_prompt(error: str, schema: type[BaseModel]) -> str:
    """The follow-up message that quotes what was wrong and the schema to meet."""
    shape = json.dumps(schema.model_json_schema(), separators=(",", ":"))
    return (
        f"Your previous reply could not be used: {error}\n"
        f"Reply again with only the corrected JSON object, matching this JSON Schema, "
        f"with no prose and no code fences:\n{shape}"
    )


def describe_error(exc: BaseException) -> str:
    """A short, key-free description of a request failure."""
    if isinstance(exc, openai.APIStatusError):
        return clip_error(f"HTTP {exc.status_code}: {exc.message}")
    if isinstance(exc, openai.APITimeoutError | TimeoutError):
        return "timed out"
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__
        return f"connection failed ({type(cause).__name__})" if cause else "connection failed"
    return clip_error(f"{type(exc).__name__}: {exc}")


def clip_error(text: str) -> str:
    """``text`` cut to the length error fields keep."""
    return text if len(text) <= _ERROR_TEXT_LIMIT else text[: _ERROR_TEXT_LIMIT - 3] + "..."
