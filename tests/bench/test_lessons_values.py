"""Asserts that call the library: made literal when the library loads, so a right answer passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import lessons_values
from bench.lessons_library import (
    LibraryError,
    lesson_problem,
    library_warnings,
    load_library,
    solution_module,
)
from rsi.sandbox import run_problem

LEDGER = '''
from __future__ import annotations

from dataclasses import dataclass

print("the library says hello")  # on stdout, when imported: not the answer
_open = []
NOTHING = None


@dataclass(frozen=True)
class Pair:
    left: int
    right: int


def pair(left, right):
    return (Pair(left, right).left, right)


def start():
    _open.append(True)


def post(cents):
    """Posting needs start() first; a fresh import starts closed."""
    if not _open:
        raise RuntimeError("post: call start() first")
    return cents // 100


def span(text, first, last):
    return text[first - 1 : last]


RATE = 3
'''


def library(folder: Path, tests: list[str], source: str = LEDGER) -> Path:
    folder.mkdir()
    (folder / "led.py").write_text(source)
    (folder / "signatures.md").write_text("- `led.span(text, first, last)`\n")
    row = {"id": "led/t", "prompt": "p", "entry_point": "f", "split": "held_out", "tests": tests}
    (folder / "tasks.jsonl").write_text(json.dumps(row) + "\n")
    return folder


def test_library_calls_with_literal_arguments_become_their_values(tmp_path: Path) -> None:
    tests = [
        "assert f('abcd') == led.span('abcd', 1, 2)",
        "assert f('abc') == led.span(led.span('abcdef', 1, 4), 2, 3)",  # innermost first
        "assert f('x') * led.RATE == 'xxx'",  # a constant
        "assert f('ab') == led.span(text='ab', first=1, last=1) + 'b'",
        "assert f() is led.NOTHING and f(1) == led.pair(1, 2)",  # None; a dataclass inside
    ]
    loaded = load_library(library(tmp_path / "led", tests))
    assert loaded.tasks[0].tests == (
        "assert f('abcd') == 'ab'",
        "assert f('abc') == 'bc'",
        "assert f('x') * 3 == 'xxx'",
        "assert f('ab') == 'a' + 'b'",
        "assert f() is None and f(1) == (1, 2)",
    )
    assert library_warnings(loaded) == []


async def test_a_right_answer_passes_an_assert_written_with_the_library(tmp_path: Path) -> None:
    loaded = load_library(library(tmp_path / "led", ["assert f('abcd') == led.span('abcd', 2, 3)"]))
    task = loaded.tasks[0]
    right = "import led\n\ndef f(text):\n    return led.span(text, 2, 3)\n"
    problem = lesson_problem(task, loaded.name)
    result = await run_problem(problem, solution_module(loaded, right), timeout_s=20)
    assert result.success, result.output
    wrong = "import led\n\ndef f(text):\n    return led.span(text, 1, 2)\n"
    result = await run_problem(problem, solution_module(loaded, wrong), timeout_s=20)
    assert not result.success and "(got 'ab', expected 'bc')" in result.output


def test_each_assert_gets_a_fresh_library_and_what_stays_a_call_is_said(tmp_path: Path) -> None:
    tests = [
        "assert f(0) is led.start()",
        "assert f(1) == led.post(500)",  # a fresh import is not started: the call raises, stays
        "assert f('ab') == led.span(f('ab'), 1, 1)",  # an argument that is not a literal
        "assert f(2) == led.missing(2)",
    ]
    loaded = load_library(library(tmp_path / "led", tests))
    assert loaded.tasks[0].tests == ("assert f(0) is None", *tests[1:])
    warnings = library_warnings(loaded)
    assert len(warnings) == 3 and all("led/t" in w and "fails every attempt" in w for w in warnings)


def test_a_library_that_cannot_be_imported_is_refused_naming_its_file(tmp_path: Path) -> None:
    folder = library(tmp_path / "led", ["assert f(1) == led.RATE"], "raise ImportError('no')\n")
    with pytest.raises(LibraryError, match=r"led\.py: cannot be imported"):
        load_library(folder)
    # Not imported at all when no assert names it: then the library runs in the sandbox alone.
    (folder / "tasks.jsonl").write_text(
        json.dumps({"id": "a", "prompt": "p", "entry_point": "f", "split": "held_out",
                    "tests": ["assert f(1) == 1"]}) + "\n"
    )  # fmt: skip
    assert load_library(folder).tasks[0].tests == ("assert f(1) == 1",)


def test_a_library_call_that_hangs_is_refused_after_its_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lessons_values, "VALUES_TIMEOUT_S", 3)
    source = "def spin(n):\n    while True:\n        n += 1\n"
    folder = library(tmp_path / "led", ["assert f(1) == led.spin(1)"], source)
    with pytest.raises(LibraryError, match=r"led\.py: working out the values .* more than 3 s"):
        load_library(folder)
