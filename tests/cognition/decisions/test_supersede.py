"""Which later decision replaces which: the same subject, close in meaning."""

from __future__ import annotations

from cognition.decisions.statements import statements
from cognition.decisions.supersede import same_subject


def _decision(
    text: str, files: tuple[str, ...] = ()
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    [found] = statements(text)
    return found.text, found.subjects, (*found.files, *files)


def test_rules_on_different_code_names_in_one_file_stand_side_by_side() -> None:
    # Two commits of one template on one file: the same words, the file in common.
    timeout = _decision(
        "Cap REPORTS_TIMEOUT_S at 500. Never raise it past 500 without measuring again.",
        ("src/reports.py",),
    )
    attempts = _decision(
        "Cap REPORTS_MAX_ATTEMPTS at 5. Never raise it past 5 without measuring again.",
        ("src/reports.py",),
    )
    assert not same_subject(attempts, timeout)
    assert not same_subject(timeout, attempts)


def test_the_same_code_name_or_its_tail_is_the_same_rule_amended() -> None:
    old = _decision("RETRIER_MAX_ATTEMPTS must be 7 because the rate-limit window allows 8 calls.")
    new = _decision("Raise MAX_ATTEMPTS to 8 now that the rate-limit window allows 9 calls.")
    same = _decision("RETRIER_MAX_ATTEMPTS must be 8 because the rate-limit window allows 9 calls.")
    assert same_subject(new, old)
    assert same_subject(same, old)
    # A name that only ends like another without the joint is another name.
    other = _decision("NOT_ATTEMPTS must be 3 because the rate-limit window allows 4 calls.")
    assert not same_subject(other, old)


def test_rules_naming_different_files_and_no_code_stand_side_by_side() -> None:
    indexer = _decision(
        "Agreed: the expiry in src/indexer.py is 400 seconds, since the CDN purges every 400 "
        "seconds. Do not raise it to 800."
    )
    reports = _decision(
        "Agreed: the cache lifetime in src/reports.py is 120 seconds, since the CDN purges "
        "every 120 seconds. Do not raise it to 240."
    )
    assert not same_subject(reports, indexer)
    again = _decision(
        "Agreed: the expiry in src/indexer.py is 600 seconds, since the CDN purges every 600 "
        "seconds now."
    )
    assert same_subject(again, indexer)


def test_a_code_name_never_meets_a_rule_naming_nothing() -> None:
    # "queue" is the setting's kind, not which code: the scheduler's rule is not the
    # notifier's, though their words are alike.
    plain = _decision(
        "The queue bound of the scheduler is intentionally 12 items (each item holds about "
        "12 KB in memory)."
    )
    named = _decision("NOTIFIER_MAX_QUEUE must stay 500 because each item holds about 500 KB.")
    assert not same_subject(named, plain)
    assert not same_subject(plain, named)
