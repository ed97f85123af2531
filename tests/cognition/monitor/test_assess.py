"""Post-turn assessment (seed 004's monitor): surprise, censor candidates, outcome."""

from __future__ import annotations

import pytest

from cognition.learn.learner import censor_worthy
from cognition.monitor import (
    EpisodeOutcome,
    ToolError,
    assess,
    error_to_censor_text,
    is_transient,
)


def test_assess_no_errors() -> None:
    assessment = assess("Done: the README now lists the new flag.", [], None)
    assert assessment.surprise_level == 0.0
    assert assessment.censor_candidates == []
    assert not assessment.has_errors
    assert assessment.outcome is EpisodeOutcome.SUCCESS


def test_assess_tool_error() -> None:
    tool_error = ToolError("Permission denied: /etc/hosts", "Write", {"path": "/etc/hosts"})
    assessment = assess("Updated the config.", [tool_error], None)
    assert assessment.surprise_level == 0.3
    assert assessment.censor_candidates == [
        "Avoid using Write when called with path=/etc/hosts — caused: Permission denied: /etc/hosts"
    ]
    assert assessment.errors[0].tool_name == "Write"
    assert not assessment.errors[0].transient


def test_assess_turn_error() -> None:
    assessment = assess("", [], "model endpoint returned invalid JSON")
    assert assessment.surprise_level == 0.9
    assert assessment.outcome is EpisodeOutcome.FAILURE
    assert assessment.errors[0].tool_name is None


@pytest.mark.parametrize(
    ("response", "word"),
    [
        ("The migration failed halfway.", "failed"),
        ("Got an Error while parsing.", "Error"),
        ("There were errors in two files.", "error"),
        ("I couldn't reach the server.", "couldn't"),
        ("I couldn\u2019t open it.", "couldn\u2019t"),
    ],
)
def test_assess_response_error_keywords(response: str, word: str) -> None:
    assessment = assess(response, [], None)
    assert assessment.surprise_level == 0.7
    assert assessment.error_word == word
    # Words alone are not errors: the episode still succeeded.
    assert assessment.outcome is EpisodeOutcome.SUCCESS


@pytest.mark.parametrize("response", ["Fixed the terrorist-themed example.", "All passed."])
def test_assess_ignores_words_that_only_contain_keywords(response: str) -> None:
    assert assess(response, [], None).surprise_level == 0.0


@pytest.mark.parametrize(
    "error",
    [
        "Request timeout after 30s",
        "Command timed out",
        "HTTP 429 Too Many Requests",
        "rate limit exceeded, retry in 20s",
        "Rate-limited by upstream",
        "503 Service Unavailable",
        "connect ECONNREFUSED 127.0.0.1:1234",
        "connection refused",
        "read ECONNRESET",
        "Connection reset by peer",
        "connect ETIMEDOUT 10.0.0.1:443",
        "Network error while fetching",
    ],
)
def test_transient_error_no_censor(error: str) -> None:
    assert is_transient(error)
    assessment = assess("", [ToolError(error, "WebFetch")], None)
    assert assessment.censor_candidates == []
    assert assessment.errors[0].transient
    # Still an error: it raises surprise and spoils the episode.
    assert assessment.surprise_level == 0.3
    assert assessment.outcome is EpisodeOutcome.PARTIAL


@pytest.mark.parametrize(
    "error", ["SyntaxError at line 4290", "Permission denied", "exit code 1503"]
)
def test_non_transient_errors(error: str) -> None:
    assert not is_transient(error)


def test_error_to_censor_text() -> None:
    text = error_to_censor_text(
        "ENOENT: no such file\n  at open()", "Read", {"path": "docs/missing.md"}
    )
    assert text == (
        "Avoid using Read when called with path=docs/missing.md — caused: "
        "ENOENT: no such file at open()"
    )
    assert error_to_censor_text("boom").startswith(
        "Avoid using the tool when repeating the same call — caused: boom"
    )
    assert "called with no arguments" in error_to_censor_text("boom", "Bash", {})


def test_error_to_censor_text_is_short_plain_text() -> None:
    args: dict[str, object] = {"d": 4, "c": "x" * 100, "b": 2, "a": "\x1b[31mred\x1b[0m"}
    text = error_to_censor_text("E" * 500 + "\x07", "Bash", args)
    caused = text.split(" — caused: ")[1]
    assert len(caused) == 100
    assert "called with a=red, b=2, c=" + "x" * 39 + "…, …" in text
    assert "\x1b" not in text and "\x07" not in text and "d=4" not in text


def test_plain_string_tool_errors_are_accepted() -> None:
    assessment = assess("", ["Permission denied", "  "], None)
    assert len(assessment.errors) == 1  # a blank error string is not an error
    assert assessment.censor_candidates == [
        "Avoid using the tool when repeating the same call — caused: Permission denied"
    ]


def test_duplicate_errors_give_one_candidate() -> None:
    assessment = assess("", ["Permission denied", "Permission denied"], None)
    assert len(assessment.errors) == 2
    assert len(assessment.censor_candidates) == 1


def test_highest_surprise_wins() -> None:
    assessment = assess("It failed.", ["Permission denied"], "turn crashed")
    assert assessment.surprise_level == 0.9
    assert assessment.outcome is EpisodeOutcome.FAILURE
    assert len(assessment.errors) == 2


# --- the seed's rule for censors and the episode outcome ---------------------


def test_learn_creates_censors() -> None:
    # High surprise with candidates: the seed's learn() adds censors.
    assessment = assess("", [ToolError("Permission denied", "Write")], "turn aborted")
    assert censor_worthy(assessment)


def test_a_lasting_tool_error_creates_censors_whatever_the_surprise() -> None:
    # Seed 004's layer tests: one non-transient tool error files a censor (at warn).
    assert censor_worthy(assess("", ["Permission denied"], None))
    assert censor_worthy(assess("It failed.", ["Permission denied"], None))
    # A transient one never does.
    assert not censor_worthy(assess("", ["rate limit exceeded (429)"], None))


def test_high_surprise_without_candidates_creates_no_censors() -> None:
    assessment = assess("", ["read ECONNRESET"], "turn aborted")
    assert assessment.surprise_level == 0.9
    assert not censor_worthy(assessment)


@pytest.mark.parametrize(
    ("tool_errors", "turn_error", "outcome"),
    [
        ([], None, EpisodeOutcome.SUCCESS),
        (["Permission denied"], None, EpisodeOutcome.PARTIAL),
        (["Permission denied"], "crashed", EpisodeOutcome.FAILURE),
        ([], "crashed", EpisodeOutcome.FAILURE),
        ([], "   ", EpisodeOutcome.SUCCESS),
    ],
)
def test_episode_outcome(
    tool_errors: list[str], turn_error: str | None, outcome: EpisodeOutcome
) -> None:
    assert assess("ok", tool_errors, turn_error).outcome is outcome
