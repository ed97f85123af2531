"""Frame data and frame selection (seed 004, section 2 and its test list)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from cognition.frames.spec import (
    DEBUG_WORDS,
    DEFAULT_FRAME,
    SEED_FRAMES,
    TASK_WORDS,
    score_frame,
    select_frame,
)
from graph.models.frame import ContextBudget, FrameSpec

BY_NAME = {frame.name: frame for frame in SEED_FRAMES}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # seed 004's test list
        pytest.param("should we use Redis?", "decision", id="decision"),
        pytest.param("build a REST API", "task", id="task"),
        pytest.param("error in deployment", "debug", id="debug"),
        pytest.param("hey how are you", "conversation", id="conversation"),
        pytest.param("xyzzy foobar", "conversation", id="no-match"),
        pytest.param("should we fix this bug", "decision", id="tiebreak"),
        # more of the same rules
        pytest.param("", "conversation", id="empty"),
        pytest.param("Explain why the cache is slow", "question", id="question"),
        pytest.param("Can you tell me about Neo4j", "question", id="phrase"),
        pytest.param("What if we design a new logo?", "creative", id="phrase-outweighs-word"),
        pytest.param("Is this trade-off worth it", "decision", id="hyphenated"),
        pytest.param("SHOULD WE", "decision", id="case"),
        pytest.param("It's broken!", "debug", id="punctuation"),
        pytest.param("deployment notes", "conversation", id="whole-words-only"),
        pytest.param("fix the crash", "debug", id="debug-outranks-task"),
        pytest.param("thanks, hello", "conversation", id="two-patterns"),
        pytest.param("why is the build failing with an error", "debug", id="most-matches"),
        # what people ask a coding agent, in words the seed script's frames did not hold
        pytest.param("Write a test for parse_date", "task", id="write"),
        pytest.param("Add logging to the importer", "task", id="add"),
        pytest.param("Rename the config module", "task", id="rename"),
        pytest.param("Please set up the CI workflow", "task", id="two-word-task"),
        pytest.param("hi, can you add a --verbose flag?", "task", id="task-outranks-greeting"),
        pytest.param("the nightly tests fail", "debug", id="fail"),
        pytest.param("add a test for the traceback below", "debug", id="debug-outranks-add"),
        pytest.param("what does this test check?", "question", id="test-is-no-task-word"),
        pytest.param("adding notes", "conversation", id="whole-task-words-only"),
    ],
)
def test_select_frame(text: str, expected: str) -> None:
    assert select_frame(text, SEED_FRAMES).name == expected


def test_tiebreak_is_a_real_tie_won_by_priority() -> None:
    text = "should we fix this bug"
    scores = {frame.name: score_frame(text, frame) for frame in SEED_FRAMES}
    assert scores == {
        "task": 1,
        "question": 0,
        "decision": 1,
        "creative": 0,
        "conversation": 0,
        "debug": 1,
    }
    assert select_frame(text, SEED_FRAMES).name == "decision"
    # Order in the sequence does not matter, priority does.
    assert select_frame(text, tuple(reversed(SEED_FRAMES))).name == "decision"


def test_phrase_counts_its_words() -> None:
    assert score_frame("hey how are you", BY_NAME["conversation"]) == 3
    assert score_frame("hey how are you", BY_NAME["question"]) == 1
    # A pattern counts once, however often it occurs.
    assert score_frame("error error error", BY_NAME["debug"]) == 1
    # Its words must be consecutive.
    assert score_frame("how you are", BY_NAME["conversation"]) == 0


def test_seed_priorities_follow_seed_004() -> None:
    ranked = sorted(SEED_FRAMES, key=lambda frame: frame.priority, reverse=True)
    assert [frame.name for frame in ranked] == [
        "decision",
        "debug",
        "task",
        "question",
        "creative",
        "conversation",
    ]


def test_usage_breaks_a_tie_of_score_and_priority() -> None:
    first = FrameSpec(name="first", title="First", activation_patterns=("deploy",), priority=2)
    second = FrameSpec(name="second", title="Second", activation_patterns=("deploy",), priority=2)
    frames = (first, second)
    assert select_frame("deploy it", frames) is first
    assert select_frame("deploy it", frames, usage={"second": 5, "first": 4}) is second
    assert select_frame("deploy it", frames, usage={"first": 5, "second": 5}) is first


def test_priority_outranks_usage_and_score_outranks_priority() -> None:
    low = FrameSpec(name="low", title="Low", activation_patterns=("go", "now"), priority=0)
    high = FrameSpec(name="high", title="High", activation_patterns=("go",), priority=9)
    assert select_frame("go", (low, high), usage={"low": 1000}) is high
    assert select_frame("go now", (low, high)) is low


def test_no_match_returns_the_given_conversation_frame() -> None:
    mine = FrameSpec(name=DEFAULT_FRAME, title="Chat", activation_patterns=("yo",))
    assert select_frame("xyzzy", (BY_NAME["task"], mine)) is mine


@pytest.mark.parametrize("frames", [(), (BY_NAME["task"], BY_NAME["debug"])])
def test_no_match_without_a_conversation_frame_falls_back_to_the_seed(
    frames: tuple[FrameSpec, ...],
) -> None:
    assert select_frame("xyzzy", frames) is BY_NAME["conversation"]


def test_seed_has_six_frames() -> None:
    assert len(SEED_FRAMES) == 6
    assert set(BY_NAME) == {"task", "question", "decision", "creative", "conversation", "debug"}


@pytest.mark.parametrize(
    ("name", "title", "category", "stakes", "patterns"),
    [
        (
            "task",
            "Task Execution",
            "tooling",
            "medium",
            TASK_WORDS,
        ),
        (
            "question",
            "Question Answering",
            "process",
            "low",
            ("what", "how", "why", "explain", "tell me"),
        ),
        (
            "decision",
            "Decision Making",
            "architecture",
            "high",
            ("should", "choose", "decide", "compare", "trade-off"),
        ),
        (
            "creative",
            "Creative",
            "architecture",
            "low",
            ("imagine", "brainstorm", "what if", "design", "explore"),
        ),
        (
            "conversation",
            "Conversation",
            "process",
            "low",
            ("hello", "hi", "thanks", "how are you"),
        ),
        (
            "debug",
            "Debug",
            "tooling",
            "medium",
            DEBUG_WORDS,
        ),
    ],
)
def test_seed_frame_data(
    name: str, title: str, category: str, stakes: str, patterns: tuple[str, ...]
) -> None:
    frame = BY_NAME[name]
    assert (frame.title, frame.default_category, frame.default_stakes) == (title, category, stakes)
    assert frame.activation_patterns == patterns
    assert frame.description
    assert frame.questions_to_ask


# total, identity, censors, frame, working_memory, decisions, facts, procedures, episodes
BUDGETS = {
    "conversation": (3000, 500, 300, 500, 700, 500, 500, 0, 0),
    "question": (6000, 500, 300, 500, 700, 1000, 1500, 500, 500),
    "task": (8000, 500, 300, 500, 700, 2000, 1500, 1500, 1000),
    "decision": (12000, 500, 300, 500, 700, 3000, 2000, 2000, 1000),
    "creative": (6000, 500, 100, 500, 700, 1000, 1500, 500, 500),
    "debug": (10000, 500, 300, 500, 700, 1500, 1000, 2500, 1000),
}


@pytest.mark.parametrize(("name", "expected"), BUDGETS.items())
def test_seed_budgets(name: str, expected: tuple[int, ...]) -> None:
    budget = BY_NAME[name].budget
    assert (budget.total, *budget.sections().values()) == expected
    assert sum(budget.sections().values()) <= budget.total


def test_budget_sections_are_in_assembly_order() -> None:
    assert list(ContextBudget().sections()) == [
        "identity",
        "censors",
        "frame",
        "working_memory",
        "decisions",
        "facts",
        "procedures",
        "episodes",
    ]


def test_budget_sections_may_not_exceed_the_total() -> None:
    with pytest.raises(ValidationError, match="more than total 3000"):
        ContextBudget(total=3000)


def test_pattern_without_words_is_refused() -> None:
    with pytest.raises(ValidationError, match="has no words"):
        FrameSpec(name="x", title="X", activation_patterns=("ok", "?!"))


@pytest.mark.parametrize("name", ["", "Decision", "9lives", "two words"])
def test_frame_name_must_be_a_lower_case_key(name: str) -> None:
    with pytest.raises(ValidationError):
        FrameSpec(name=name, title="X")


def test_frames_are_immutable() -> None:
    with pytest.raises(ValidationError):
        BY_NAME["task"].priority = 100
    with pytest.raises(ValidationError):
        BY_NAME["task"].budget.total = 1


def test_task_and_debug_words_begin_with_the_seed_scripts() -> None:
    # Seed 004's script's words stay; the ones added come after them.
    assert TASK_WORDS[:5] == ("build", "fix", "create", "implement", "deploy")
    assert DEBUG_WORDS[:6] == ("error", "bug", "broken", "failing", "crash", "wrong")
    assert len(set(TASK_WORDS)) == len(TASK_WORDS) and len(set(DEBUG_WORDS)) == len(DEBUG_WORDS)
