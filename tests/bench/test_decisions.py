"""bench.decisions in small: rules from chats and commits reach the prompt, amendments current."""

from __future__ import annotations

import pytest

from bench.decisions import SMALL, holds, holds_amendment, measure
from bench.decisions_data import Rule, generate


def _rule(text: str, value: int) -> Rule:
    return Rule(
        "X_MAX_ATTEMPTS", "src/x.py", "x", "x", "attempt budget", value, text, "session", "fails"
    )


def test_the_judge_wants_the_numbers_most_words_and_for_an_amendment_the_mark() -> None:
    rule = _rule("X_MAX_ATTEMPTS is 7, measured to the rate-limit window of 8 calls.", 7)
    quoted = '- "X_MAX_ATTEMPTS is 7, measured to the rate-limit window of 8 calls." (commit 1)'
    assert holds(quoted, rule)
    assert not holds(quoted.replace(" 8 ", " 9 "), rule)  # a number missing
    assert not holds("X_MAX_ATTEMPTS is 7 of 8", rule)  # most words missing
    assert not holds(quoted, rule, current=True)
    assert holds(
        quoted.replace("(commit 1)", "(current, replaces the rule of 2026-10-02)"),
        rule,
        current=True,
    )


def test_an_amendment_is_not_found_in_the_old_rule_it_replaced() -> None:
    old = "UPLOADER_TIMEOUT_S is 64, the upstream p99 latency is 64 s; do not round it to 128."
    new = (
        "Decision revised: UPLOADER_TIMEOUT_S should be 128, "
        "since the upstream p99 latency is 128 s."
    )
    rule = Rule(**{**_rule(old, 64).__dict__, "amended": _rule(new, 128)})
    # The old statement holds the new number and most of the new words: not the amendment.
    assert holds(old, rule.amended) and not holds_amendment(old, rule, marked=False)
    assert holds_amendment(f"{old}\n{new}", rule, marked=False)
    assert not holds_amendment(f"{old}\n{new}", rule, marked=True)  # not marked current
    shown = f'- "{new}" (current, replaces the rule of 2026-10-02)'
    assert holds_amendment(shown, rule, marked=True)
    # The amendment's words spread over two lines are not one statement of it.
    assert not holds_amendment(new.replace(", since", "\nsince"), rule, marked=False)


@pytest.mark.usefixtures("neo4j_in_environ")
async def test_a_small_project_gets_its_rules_through_the_hooks() -> None:
    tiny = {
        **SMALL,
        "commit_rules": 2,
        "session_rules": 3,
        "amended": 1,
        "ordinary_sessions": 4,
        "ordinary_commits": 6,
    }  # the fast test's size
    data = generate(7, **tiny)
    results = await measure(data)
    assert len(results) == len(data.prompts) == 5
    assert all(nous for _, nous, _, _ in results), results
    assert all(nous for category, nous, _, _ in results if category == "amended"), results
