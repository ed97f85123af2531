"""Post-turn assessment: how surprising a turn was, and what it should teach.

From the monitor of the cognitive-layer seed (004). The measure is deliberately
crude (its decision D3): structural checks and a few words, no model call.
Censors are conservative (D4): transient errors never become censor candidates.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from cognition.text import plain_text

# The seed's surprise levels. Several may apply; the highest wins.
SURPRISE_NONE = 0.0
SURPRISE_TOOL_ERROR = 0.3
SURPRISE_ERROR_WORDS = 0.7
SURPRISE_TURN_ERROR = 0.9

CENSOR_ERROR_CHARS = 100
_ARG_VALUE_CHARS = 40
_MAX_ARGS = 3

# The seed's error indicators in a response: "failed", "error", "couldn't".
# Matched at the start of a word, so "errors" counts and "terror" does not.
_ERROR_WORDS = re.compile(r"\b(?:failed|error|couldn['\u2019]t)", re.IGNORECASE)

# The seed's transient patterns: timeout, rate limit, 429, 503, connection
# refused, network error, ECONNRESET, ETIMEDOUT; with their other spellings
# (timed out, rate-limited, Too Many Requests, Service Unavailable,
# ECONNREFUSED, connection reset).
_TRANSIENT = re.compile(
    r"time\s*out|timed\s*out|rate[\s_-]*limit|\b429\b|too many requests|\b503\b"
    r"|service unavailable|connection (?:refused|reset)|network\s*error"
    r"|\beconnreset\b|\betimedout\b|\beconnrefused\b",
    re.IGNORECASE,
)


class EpisodeOutcome(StrEnum):
    """The outcome an assessed turn gives its episode."""

    SUCCESS = "success"
    PARTIAL = "partial"
    FAILURE = "failure"


@dataclass(frozen=True)
class ToolError:
    """A tool call that failed: which tool, with what arguments, and the error."""

    error: str
    tool_name: str | None = None
    arguments: Mapping[str, object] | None = None


@dataclass(frozen=True)
class AssessedError:
    """One error seen in a turn; `tool_name` is None for the turn's own error."""

    text: str
    transient: bool
    tool_name: str | None = None


@dataclass(frozen=True)
class Assessment:
    """What the monitor made of a turn."""

    surprise_level: float
    outcome: EpisodeOutcome
    errors: list[AssessedError] = field(default_factory=list)
    error_word: str | None = None
    censor_candidates: list[str] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        """True when a tool or the turn itself reported an error."""
        return bool(self.errors)


def is_transient(error: str) -> bool:
    """True when an error is likely to pass on its own (timeouts, rate limits, network)."""
    return _TRANSIENT.search(error) is not None


def _describe_arguments(arguments: Mapping[str, object] | None) -> str:
    if arguments is None:
        return "repeating the same call"
    if not arguments:
        return "called with no arguments"
    parts = []
    for key in sorted(arguments)[:_MAX_ARGS]:
        value = plain_text(str(arguments[key]), _ARG_VALUE_CHARS)
        parts.append(f"{plain_text(str(key), _ARG_VALUE_CHARS)}={value}")
    more = ", …" if len(arguments) > _MAX_ARGS else ""
    return "called with " + ", ".join(parts) + more


def error_to_censor_text(
    error: str,
    tool_name: str | None = None,
    arguments: Mapping[str, object] | None = None,
) -> str:
    """Turn a tool error into a censor trigger, in the seed's format.

    "Avoid using {tool} when {simplified arguments} — caused: {error}", the
    error cut to 100 characters. Everything is reduced to one line of plain
    text; arguments are shown as
    at most three `key=value` pairs with short values.
    """
    return tool_call_prefix(tool_name, arguments) + plain_text(error, CENSOR_ERROR_CHARS)


def tool_call_prefix(tool_name: str | None, arguments: Mapping[str, object] | None) -> str:
    """The start every censor trigger learned from this call shares, up to its error.

    Claude Code's censor gate looks censors up by it: a call described the
    same way (same tool, same clipped arguments) meets the censors its
    earlier failures left, whatever error they named.
    """
    tool = plain_text(tool_name, _ARG_VALUE_CHARS) if tool_name else "the tool"
    return f"Avoid using {tool} when {_describe_arguments(arguments)} — caused: "


def assess(
    response_text: str,
    tool_errors: Sequence[str | ToolError],
    turn_error: str | None,
) -> Assessment:
    """Assess a finished turn: surprise level, errors, censor candidates, outcome.

    Surprise is the highest that applies: 0.0 with no errors, 0.3 for tool
    errors, 0.7 for error words in the response, 0.9 when the turn itself
    failed. Each non-transient tool error becomes a censor candidate. The
    outcome is "failure" for a turn error, "partial" for tool errors (transient
    ones too: the turn still did not go cleanly), else "success".
    """
    tools = [e if isinstance(e, ToolError) else ToolError(e) for e in tool_errors]
    tools = [e for e in tools if e.error.strip()]  # an empty error string is no error
    turn = turn_error if turn_error and turn_error.strip() else None

    errors = [AssessedError(e.error, is_transient(e.error), e.tool_name) for e in tools]
    candidates = [
        error_to_censor_text(e.error, e.tool_name, e.arguments)
        for e in tools
        if not is_transient(e.error)
    ]
    word = _ERROR_WORDS.search(response_text)

    levels = [SURPRISE_NONE]
    if tools:
        levels.append(SURPRISE_TOOL_ERROR)
    if word:
        levels.append(SURPRISE_ERROR_WORDS)
    if turn:
        levels.append(SURPRISE_TURN_ERROR)
        errors.append(AssessedError(turn, is_transient(turn)))

    if turn:
        outcome = EpisodeOutcome.FAILURE
    elif tools:
        outcome = EpisodeOutcome.PARTIAL
    else:
        outcome = EpisodeOutcome.SUCCESS
    return Assessment(
        surprise_level=max(levels),
        outcome=outcome,
        errors=errors,
        error_word=word.group(0) if word else None,
        censor_candidates=list(dict.fromkeys(candidates)),  # same error twice, one censor
    )
