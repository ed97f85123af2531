"""Which ``response_format`` an endpoint accepts, and the reply schema it is sent.

Servers differ: OpenAI, LM Studio, vLLM, Ollama and llama.cpp's own
``llama-server`` constrain decoding to ``{"type": "json_schema", ...}``;
``llama-cpp-python``'s server takes ``{"type": "json_object", "schema": ...}``
instead; LM Studio refuses plain ``json_object``; some servers take no format
at all. :data:`LADDER` is the order the client tries them in, best first.

:func:`wire_schema` turns a reply model's pydantic schema into one a
constraining server can compile: references inlined, every property required,
no extra properties (OpenAI's ``strict`` rules), and strings and lists capped
so a small model cannot ramble until ``max_tokens``. The pydantic model stays
the judge of the reply: the wire schema only shapes what is generated.
"""

from __future__ import annotations

import re
from typing import Any, Literal, get_args

import openai
from pydantic import BaseModel

ReplyFormat = Literal["json_schema", "json_object_schema", "json_object", "none"]
# Best first: a schema the server enforces, then one it may enforce, then any JSON, then none.
LADDER: tuple[ReplyFormat, ...] = get_args(ReplyFormat)

# Long enough for a rationale of two sentences; short enough to bound generation.
_STRING_LIMIT = 300
_LIST_LIMIT = 5
_DROPPED_KEYS = frozenset({"title", "default", "examples"})


def formats_from(start: ReplyFormat) -> tuple[ReplyFormat, ...]:
    """The ladder from ``start`` down."""
    return LADDER[LADDER.index(start) :]


def response_format(fmt: ReplyFormat, name: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The ``response_format`` body for ``fmt`` (``None`` for no format)."""
    if fmt == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": _schema_name(name), "schema": schema, "strict": True},
        }
    if fmt == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    if fmt == "json_object":
        return {"type": "json_object"}
    return None


def wire_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON Schema made strict, self-contained and bounded (see module doc)."""
    raw = model.model_json_schema()
    definitions = raw.pop("$defs", {})
    result = _tighten(raw, definitions, depth=0)
    return result if isinstance(result, dict) else {}


def _tighten(node: object, definitions: dict[str, Any], depth: int) -> object:
    if depth > 20:  # a recursive model; no reply model of ours is one
        raise ValueError("reply schema nests too deeply")
    if isinstance(node, list):
        return [_tighten(item, definitions, depth + 1) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _tighten(definitions[ref.removeprefix("#/$defs/")], definitions, depth + 1)
    out: dict[str, Any] = {
        key: _tighten(value, definitions, depth + 1)
        for key, value in node.items()
        if key not in _DROPPED_KEYS
    }
    kind = out.get("type")
    if kind == "object" and isinstance(out.get("properties"), dict):
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    elif kind == "string" and "enum" not in out:
        out["maxLength"] = min(int(out.get("maxLength", _STRING_LIMIT)), _STRING_LIMIT)
    elif kind == "array":
        out["maxItems"] = min(int(out.get("maxItems", _LIST_LIMIT)), _LIST_LIMIT)
    return out


def _schema_name(name: str) -> str:
    # OpenAI: a-z, A-Z, 0-9, underscores and dashes, at most 64 characters.
    cleaned = "".join(c if c.isalnum() or c in "_-" else "_" for c in name)
    return (cleaned or "reply")[:64]


def format_refused(exc: openai.APIStatusError) -> bool:
    """Whether a failed request may have failed for its ``response_format`` alone.

    A 400 or 422; or a 500 whose message or body names the response_format:
    llama-cpp-python's server answers an unknown type so.
    """
    if exc.status_code in (400, 422):
        return True
    return exc.status_code == 500 and "response_format" in f"{exc.message} {exc.body}"


def step_header(step: str) -> dict[str, str]:
    """The header naming the step a request is for (logs and test stubs read it)."""
    return {"X-Nous-Step": re.sub(r"[^A-Za-z0-9_.:-]", "_", step)[:100]}
