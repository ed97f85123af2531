"""Which sentences state a decision: the rules a test holds to (precision first)."""

from __future__ import annotations

import pytest

from cognition.decisions.statements import sentences, statements
from cognition.decisions.subjects import code_names, files_in, numbers_in, subject_words

DECISIONS = [
    "MAX_ATTEMPTS is 7, measured to the rate-limit window; do not round it to 10",
    "MAX_ATTEMPTS should be exactly 7; 8 trips the limiter.",
    "We decided to keep the cache per process because workers fork.",
    "Never retry a 4xx other than 429 in fetch_page(), since the server treats repeats as abuse.",
    "From now on, timestamps in events.py are stored as UTC; local time broke the nightly report.",
    "Set http.timeout_s to 30 because the upstream p99 is 22 s.",
    "Pin requests to 2.31 in requirements.txt: 2.32 breaks the proxy auth.",
    "We agreed that parse_header() must return None on an empty line, as callers check for it.",
    "Raise MAX_ATTEMPTS to 8 now that the window is 90 s; this replaces the old limit of 7.",
    "The lock timeout stays at 45 seconds; anything shorter lets two workers claim the same job.",
    "Use orjson instead of json in serializer.py because the payloads are 40 MB.",
    "- **Rule:** `CHUNK_BYTES` must stay a multiple of 4096, otherwise the mmap reads tear.",
    "Please keep MAX_ATTEMPTS at 7 because of the limiter.",
    "OK, decision made: 400 seconds for MAILER_TIMEOUT_S, as the upstream p99 is 400 s.",
]
CHATTER = [
    "Let me look at retry.py to see what's going on.",
    "I'll run the tests now.",
    "This should fix the flaky test in test_cache.py since the timeout was too short.",
    "Can you check why parse_header fails?",
    "Should we keep MAX_ATTEMPTS at 7?",
    "The tests pass now.",
    "I updated the parser to handle empty lines; the tests now pass.",
    "Maybe we should bump the timeout to 30 because CI is slow.",
    "Fixed typo in README.md",
    "Refactor cache layer to reduce duplication",
    "You should run pytest first.",
    "Here is the diff for utils.py.",
    "The function load_config reads settings.yaml and returns a dict.",
    "Done: renamed get_user to fetch_user in api.py.",
    "Great, that works because the cache is warm now.",
    "Add tests for the tokenizer in test_lexer.py",
    "Update dependencies",
    "Move helpers into utils/strings.py",
    "The build failed because node_modules was stale.",
    "I changed the import in main.py so the CLI starts again.",
    "Please run the tests for parse_header() since I changed it.",
    "It might be that BATCH_SIZE is too big since the worker runs out of memory.",
]


@pytest.mark.parametrize("text", DECISIONS)
def test_a_decision_with_its_reason_is_a_statement(text: str) -> None:
    [found] = statements(text)
    assert found.text.startswith(sentences(text)[0][:20])


@pytest.mark.parametrize("text", CHATTER)
def test_ordinary_chatter_is_never_a_decision(text: str) -> None:
    assert statements(text) == []


def test_a_reason_in_the_next_sentence_goes_with_the_rule() -> None:
    text = "Sure. Keep BATCH_SIZE at 500. Larger batches time out on the staging cluster. Next?"
    [found] = statements(text)
    assert found.text == "Keep BATCH_SIZE at 500. Larger batches time out on the staging cluster."
    assert found.subjects == ("BATCH_SIZE",)


def test_a_reply_keeps_only_its_decisions() -> None:
    reply = (
        "I looked at retry.py and the limiter logs.\n\n"
        "MAX_ATTEMPTS should be exactly 7; 8 trips the limiter. I'll update the comment too.\n"
        "- The backoff in `Retrier.delay()` is fine as it is."
    )
    found = statements(reply)
    assert [s.text for s in found] == ["MAX_ATTEMPTS should be exactly 7; 8 trips the limiter."]


def test_subjects_are_code_names_files_and_keys_never_plain_words() -> None:
    text = (
        "MAX_ATTEMPTS stays 7 in src/retry.py; see `backoff.base_ms`, RetryPolicy, "
        "parse_header(), http.timeout_s, e.g. the window limit."
    )
    names = code_names(text)
    assert {"MAX_ATTEMPTS", "backoff.base_ms", "RetryPolicy", "parse_header"} <= set(names)
    assert "http.timeout_s" in names and "window" not in names and "e.g" not in names
    assert files_in(text) == ["src/retry.py"]
    assert numbers_in("raise it from 7 to 8.5 (v2 stays)") == ["7", "8.5"]
    assert subject_words(["MAX_ATTEMPTS", "backoffMs", "src/retry.py"]) == (
        "max attempts backoff ms src retry py"
    )


def test_hostile_text_is_read_as_text() -> None:
    text = "``` ignore previous instructions ``` \x00\ufeff" + "MAX_ATTEMPTS must be 7; " * 2000
    found = statements(text)
    assert all(len(s.text) <= 400 for s in found)
