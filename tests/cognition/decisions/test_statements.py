"""Which sentences state a decision: the rules a test holds to (precision first)."""

from __future__ import annotations

import pytest

from cognition.decisions.statements import commit_rule, sentences, statements
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
# Other writers' shapes: the passive, "we went with", "I'd leave", "let's make", a conclusion
# and its rationale, "N it is", a reason in parentheses, a move "from A to B", a past bump,
# a new number, an arrow, a conventional commit's subject.
OTHER_SHAPES = [
    "The retry budget was set to 7 on purpose: the limiter allows 8 calls a window.",
    "We went with orjson for the API layer because the payloads are 40 MB.",
    "I'd leave FLUSH_INTERVAL_S at 30: shorter intervals overload the disk.",
    "Let's make LOCK_TTL_S 45, otherwise two workers claim the same job.",
    "Conclusion: config.yaml keeps max_connections = 20. Rationale: the database caps us at 25.",
    "600 it is for CACHE_TTL_S (the CDN purges every ten minutes).",
    "The page size of the exporter is intentionally 200 (the partner API truncates above 200).",
    "Heads-up: HTTP_TIMEOUT_S moves from 30 to 45 since the upstream got slower.",
    "After the outage we bumped POOL_SIZE to 40 (the database now allows 50 connections).",
    "New limit for UPLOAD_CHUNK_BYTES: 8192. The storage pages grew, so the old 4096 is wrong now.",
    "crawler: CRAWLER_DELAY_MS 100 -> 250 because the site bans us below 200 ms.",
    "fix(exporter): limit the page size to 200, so the partner API never truncates a page.",
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
    "I'd look at the logs first.",
    "Let's make a plan for the migration.",
    "I left the rest of src/uploader.py as it was.",
    "Here it is: src/retry.py with the new tests.",
    "Summary of the changes:\n- renamed load_jobs\n- added tests for parse_header()",
    "Sure. Next?",
    "I bumped the version in pyproject.toml.",
    "Log the uploader's batch size at startup",
    "The tests pass now. The build broke since node_modules was stale.",
]


@pytest.mark.parametrize("text", DECISIONS)
def test_a_decision_with_its_reason_is_a_statement(text: str) -> None:
    [found] = statements(text)
    assert found.text.startswith(sentences(text)[0][:20])


@pytest.mark.parametrize("text", OTHER_SHAPES)
def test_other_writers_shapes_are_statements_too(text: str) -> None:
    [found] = statements(text)
    assert found.text == text


@pytest.mark.parametrize("text", CHATTER)
def test_ordinary_chatter_is_never_a_decision(text: str) -> None:
    assert statements(text) == []


def test_a_reason_in_the_next_sentence_goes_with_the_rule() -> None:
    text = "Sure. Keep BATCH_SIZE at 500. Larger batches time out on the staging cluster. Next?"
    [found] = statements(text)
    assert found.text == "Keep BATCH_SIZE at 500. Larger batches time out on the staging cluster."
    assert found.subjects == ("BATCH_SIZE",)


def test_a_rule_naming_nothing_takes_its_reason_from_the_next_sentence() -> None:
    [found] = statements("Sure. Keep it at 7. The limiter allows 8 per window. Next?")
    assert found.text == "Keep it at 7. The limiter allows 8 per window."
    [commit] = statements(
        "fix(exporter): limit the page size to 200\n\n"
        "The partner API truncates larger pages, so anything above 200 loses rows."
    )
    assert commit.text.startswith("fix(exporter): limit the page size to 200. The partner API")


def test_a_list_under_a_line_ending_in_a_colon_is_one_statement() -> None:
    text = (
        "Here is what we agreed:\n- BATCH_SIZE: 500 rows\n"
        "- reason: larger batches hit the statement timeout\n\nAnything else?"
    )
    [found] = statements(text)
    assert found.text == (
        "Here is what we agreed: BATCH_SIZE: 500 rows; reason: larger batches hit the "
        "statement timeout."
    )
    assert found.subjects == ("BATCH_SIZE",)


def test_a_commit_setting_a_named_value_with_its_reasons_is_a_rule() -> None:
    message = (
        "search: explain why SEARCH_POOL_SIZE is 12\n\n"
        "- the replica allows 15 connections\n- 20 was tried and failed"
    )
    assert statements(message) == []
    found = commit_rule(message)
    assert found is not None and found.subjects == ("SEARCH_POOL_SIZE",)
    assert found.text == (
        "search: explain why SEARCH_POOL_SIZE is 12. the replica allows 15 connections. "
        "20 was tried and failed."
    )
    for ordinary in (
        "Fix flaky test_retry\n\nThe test slept 2 s; it failed because CI is slow.",
        "Bump requests from 2.31 to 2.32\n\nRelease notes: fixes a proxy bug.",
        "Set LOG_LEVEL to 10",  # a value, no reason
        "Refactor cache layer to reduce duplication",
    ):
        assert commit_rule(ordinary) is None, ordinary


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
