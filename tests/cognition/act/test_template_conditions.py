"""Action template triggers: path globs and conditions, each way."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cognition.act.conditions import Conditions, FileFacts, Trigger, compile_glob, glob_match
from graph.models.observe import Observation
from tests.support.action_templates import T, facts, observe

# --- globs ------------------------------------------------------------------------------------

GLOBS = [
    ("*.md", "a.md", True),
    ("*.md", "x/a.md", False),
    ("*.MD", "a.md", False),
    ("*", ".hidden", True),
    ("a/?.md", "a/b.md", True),
    ("a/?.md", "a/bc.md", False),
    ("[ab].md", "b.md", True),
    ("[ab].md", "c.md", False),
    ("_input/*", "_input/a.md", True),
    ("_input/*", "_input/sub/a.md", False),
    ("_input/*", "x/_input/a.md", False),
    ("knowledge/**/*.md", "knowledge/a.md", True),
    ("knowledge/**/*.md", "knowledge/x/y/a.md", True),
    ("knowledge/**/*.md", "knowledgex/a.md", False),
    ("knowledge/**/*.md", "other/knowledge/a.md", False),
    ("knowledge/**/*.md", "knowledge/a.md/b.txt", False),
    ("knowledge/**/thoughts/**", "knowledge/thoughts/x.md", True),
    ("knowledge/**/thoughts/**", "knowledge/a/b/thoughts/c/d.md", True),
    ("knowledge/**/thoughts/**", "knowledge/thoughts", False),
    ("knowledge/**/thoughts/**", "knowledge/mythoughts/x.md", False),
    ("inbox/**", "inbox", False),
    ("inbox/**", "inbox/a", True),
    ("inbox/**", "inbox/a/b/c", True),
    ("**", "a/b", True),
    ("**/*.py", "a.py", True),
    ("**/*.py", "a/b/c.py", True),
    ("a/**/**/b", "a/b", True),
    ("a/**/b/**/c", "a/x/b/y/z/c", True),
    ("a/**/b/**/c", "a/x/c", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), GLOBS)
def test_glob(pattern: str, path: str, expected: bool) -> None:
    assert glob_match(pattern, path) is expected


def test_many_double_stars_stay_fast() -> None:
    pattern = "/".join(["**"] * 2 + ["a", "**"] * 10 + ["z"])
    assert glob_match(pattern, "/".join(["a"] * 40)) is False


@pytest.mark.parametrize(
    ("pattern", "complaint"),
    [
        ("", "empty"),
        ("/etc/*", "absolute"),
        ("a//b", "empty, '.' or '..' segment"),
        ("a/../b", "empty, '.' or '..' segment"),
        ("dir/", "empty, '.' or '..' segment"),
        ("a**b", "whole segment"),
        ("[abc", "without a closing"),
        ("a\\b", "backslash"),
    ],
)
def test_bad_globs_are_refused(pattern: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=re.escape(complaint)):
        compile_glob(pattern)


# --- conditions, each way ---------------------------------------------------------------------

CONDITIONS: list[tuple[dict[str, Any], Observation, FileFacts, bool]] = [
    ({"extensions": [".md"]}, observe(T.FILE_CREATED, "a/b.md"), facts(), True),
    ({"extensions": [".md"]}, observe(T.FILE_CREATED, "a/B.MD"), facts(), True),
    ({"extensions": [".md"]}, observe(T.FILE_CREATED, "a/b.md.bak"), facts(), False),
    ({"extensions": [".md"]}, observe(T.TASK_FAILED), facts(), False),
    ({"max_size_bytes": 100}, observe(T.FILE_CREATED, "a"), facts(size=100), True),
    ({"max_size_bytes": 100}, observe(T.FILE_CREATED, "a"), facts(size=101), False),
    ({"max_size_bytes": 100}, observe(T.FILE_CREATED, "a"), facts(size=None), False),
    ({"not_path_suffixes": ["index.md"]}, observe(T.FILE_CREATED, "k/index.md"), facts(), False),
    ({"not_path_suffixes": ["index.md"]}, observe(T.FILE_CREATED, "k/a.md"), facts(), True),
    ({"not_path_suffixes": ["index.md"]}, observe(T.TASK_FAILED), facts(), True),
    (
        {"content_contains_any": ["status: draft"]},
        observe(T.FILE_CREATED, "a"),
        facts("x\nStatus: Draft"),
        True,
    ),
    (
        {"content_contains_any": ["status: draft"]},
        observe(T.FILE_CREATED, "a"),
        facts("status: done"),
        False,
    ),
    ({"content_contains_any": ["status: draft"]}, observe(T.FILE_CREATED, "a"), facts(None), False),
    ({"max_error_count": 2}, observe(T.TASK_FAILED), facts(errors=2), True),
    ({"max_error_count": 2}, observe(T.TASK_FAILED), facts(errors=3), False),
    ({"metadata_equals": {"job": "x"}}, observe(T.SCHEDULE_TRIGGERED, job="x"), facts(), True),
    ({"metadata_equals": {"n": "3"}}, observe(T.SCHEDULE_TRIGGERED, n=3), facts(), True),
    ({"metadata_equals": {"job": "x"}}, observe(T.SCHEDULE_TRIGGERED, job="y"), facts(), False),
    ({"metadata_equals": {"job": "x"}}, observe(T.SCHEDULE_TRIGGERED), facts(), False),
    ({}, observe(T.TASK_FAILED), facts(None, None), True),
    (
        {"extensions": [".md"], "max_size_bytes": 10},
        observe(T.FILE_CREATED, "a.md"),
        facts(size=11),
        False,
    ),
]


@pytest.mark.parametrize(("declared", "observation", "file_facts", "expected"), CONDITIONS)
def test_conditions(
    declared: dict[str, Any], observation: Observation, file_facts: FileFacts, expected: bool
) -> None:
    assert Conditions.model_validate(declared).hold(observation, file_facts) is expected


def test_content_patterns_are_case_insensitive_and_need_content() -> None:
    trigger = Trigger(content_patterns=["new thinker:"])
    observation = observe(T.FILE_CREATED, "_input/a.md")
    assert trigger.matches(observation, facts("NEW THINKER: Hume"))
    assert not trigger.matches(observation, facts("new thinkers"))
    assert not trigger.matches(observation, facts(None))


def test_path_patterns_need_a_path() -> None:
    trigger = Trigger(path_patterns=["**"])
    assert not trigger.matches(observe(T.TASK_FAILED), facts())
