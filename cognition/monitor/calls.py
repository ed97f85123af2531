"""Which tool calls are "the same call": a tool and its whole input, normalised.

A model that retries a failing command rarely sends it byte for byte: the
whitespace, the quoting, a temporary folder or a timestamp differ. A censor
learned from a call must meet that call again, and only that call: another
command that starts with the same forty characters is another call. So a
call is known by :func:`call_key`, a hash of :func:`normalised_call`: the
tool's name and every input value, with runs of whitespace made one space,
quote characters dropped, and the values that change every run (temporary
paths, timestamps, UUIDs) replaced by a placeholder. The model's own note
about a call (Bash's ``description``) is commentary, not input, and is left
out.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping

from cognition.text import plain_text

COMMENTARY_KEYS = frozenset({"description"})
"""Input keys that describe a call without changing what it does."""
_TEMPORARY = r"(?:/private)?/(?:var/)?tmp/|/var/folders/|/dev/shm/"
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_VOLATILE = (
    # Temporary files and folders: /tmp, /var/tmp, macOS's per-user folders, shared memory.
    (re.compile(rf"(?:{_TEMPORARY})[^\s'\"`;|&)]*"), "<tmp>"),
    (re.compile(r"\btmp[._-]?[A-Za-z0-9_]{6,}\b"), "<tmp>"),
    # ISO 8601 date-times, clock times, Unix epochs in seconds or milliseconds.
    (
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
        ),
        "<time>",
    ),
    (re.compile(r"\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b"), "<time>"),
    (re.compile(r"\b1\d{9}(?:\d{3})?\b"), "<time>"),
    (re.compile(rf"\b{_UUID}\b"), "<id>"),
)
_QUOTES = re.compile(r"[\"'`]")
_SPACES = re.compile(r"\s+")
DESCRIBED_CHARS = 300
CALL_CONFIDENCE = 0.5
"""What a tool call's record counts as its confidence (a call is not a decision: neutral)."""


def call_record_key(key: str) -> str:
    """The key of the ``Pattern`` that holds a tool call's record of outcomes."""
    return f"tool_call:{key}"


def normalised_text(text: str) -> str:
    """One input value as it is compared: volatile values replaced, quotes dropped, spaces one."""
    for pattern, placeholder in _VOLATILE:
        text = pattern.sub(placeholder, text)
    return _SPACES.sub(" ", _QUOTES.sub("", text)).strip()


def _normalised(value: object) -> object:
    if isinstance(value, str):
        return normalised_text(value)
    if isinstance(value, Mapping):
        return {str(k): _normalised(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normalised(v) for v in value]
    return value


def normalised_call(tool_name: str | None, tool_input: Mapping[str, object] | None) -> str:
    """The call as compared: the tool and its whole input, normalised, as canonical JSON."""
    arguments = {
        str(k): _normalised(v) for k, v in (tool_input or {}).items() if k not in COMMENTARY_KEYS
    }
    call = {"tool": tool_name or "", "input": arguments}
    # ASCII escapes: a lone surrogate in hostile input still hashes.
    return json.dumps(call, sort_keys=True, default=str)


def call_key(tool_name: str | None, tool_input: Mapping[str, object] | None) -> str:
    """The key two calls share when they are the same call (see the module's docstring)."""
    return hashlib.sha256(normalised_call(tool_name, tool_input).encode()).hexdigest()[:32]


def describe_call(tool_name: str | None, tool_input: Mapping[str, object] | None) -> str:
    """The call as one line a person (or a model, fenced) reads: every input value, clipped."""
    parts = [
        f"{plain_text(str(k), 40)}={plain_text(v if isinstance(v, str) else json.dumps(v))}"
        for k, v in sorted((tool_input or {}).items())
        if k not in COMMENTARY_KEYS
    ]
    tool = plain_text(tool_name, 40) if tool_name else "the tool"
    described = ", ".join(parts) if parts else "no arguments"
    return f"{tool} called with {plain_text(described, DESCRIBED_CHARS)}"
