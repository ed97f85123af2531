"""Code is read from a reply as a model writes it: a fenced block among prose."""

from __future__ import annotations

import pytest

from cognition.code_reply import applied_line, code_blocks, extract_code

SIGNATURE = 'def add(a: int, b: int) -> int:\n    """Sum of a and b."""\n'


def test_the_longest_python_block_wins_and_the_prose_around_it_is_ignored() -> None:
    reply = (
        "Sure! Here is a helper:\n```python\nx = 1\n```\nAnd the solution:\n"
        "```python\ndef add(a, b):\n    return a + b\n```\nIt adds. Example:\n```text\n"
        "add(1, 2) -> 3 and a much longer line of plain text that is not code at all\n```\n"
    )
    assert extract_code(reply) == "def add(a, b):\n    return a + b\n"
    assert code_blocks(reply) == ["x = 1\n", "def add(a, b):\n    return a + b\n"]


@pytest.mark.parametrize(
    "reply",
    [
        "    return a + b\n",  # HumanEval's completion form
        "Here you go:\n```py\nreturn a + b\n```",  # a body at column 0, in a fence
        "<think>easy</think>\n```\n    return a + b\n```",
    ],
)
def test_a_bare_body_is_completed_with_the_signature(reply: str) -> None:
    assert extract_code(reply, signature=SIGNATURE, entry_point="add") == (
        SIGNATURE + "    return a + b\n"
    )


def test_a_reply_without_code_gives_nothing() -> None:
    assert extract_code("I cannot help with that.") == ""
    assert extract_code('{"code": "def add(a, b): return a + b"}') == ""  # JSON is not code
    assert (
        extract_code("def add(a, b):\n    return a + b\n") == "def add(a, b):\n    return a + b\n"
    )


def test_the_applied_line_is_read_outside_code() -> None:
    reply = "```python\n# Applied: 01FAKEID\ndef f(): ...\n```\nApplied: [01JREAL1], 01JREAL2"
    assert applied_line(reply) == ["01JREAL1", "01JREAL2"]
    assert applied_line("```python\ndef f(): ...\n```") == []
