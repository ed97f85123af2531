"""bench.lessons --trace: one JSON line per attempt, with the memory the prompt carried."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.lessons import main, run_lessons
from bench.lessons_library import load_library
from bench.lessons_trace import Trace, memory_block, read_trace
from cognition.llm import LLMClient
from graph.settings import CaseSettings, LLMSettings, Settings
from graph.store.driver import GraphDriver
from tests.bench.test_lessons import model, write_mini
from tests.support.llm_stub import LLMStub


async def test_every_attempt_is_a_line_with_the_memory_its_prompt_carried(
    driver: GraphDriver, tmp_path: Path
) -> None:
    library = load_library(write_mini(tmp_path / "mini"))
    path = tmp_path / "trace.jsonl"
    trace = Trace.open(path)
    with LLMStub(default=model, model="stub-coder") as stub:
        settings = Settings(
            llm=LLMSettings(base_url=stub.base_url), cases=CaseSettings(per_prompt=1)
        )
        async with LLMClient(settings.llm) as llm:
            result = await run_lessons(llm, settings, driver, library, trace=trace)
        requests = len(stub.chat_requests)
    trace.close()
    records = read_trace(path)
    assert len(records) == requests  # one line per attempt, practice included
    arms = {str(r["arm"]) for r in records}
    assert arms == {"memoryless", "practice round 1", "nous", "random"}
    first = [r for r in records if r["arm"] == "practice round 1"]
    assert [(r["task"], r["attempt"], r["passed"]) for r in first] == [
        ("p_first2", 1, False),
        ("p_first2", 2, True),
        ("p_tag", 1, False),
        ("p_tag", 2, True),
    ]
    assert "mini.span(text, 0, 2)" in str(first[0]["code"])
    assert "positions are counted from 1" in str(first[0]["output"])
    nous = [r for r in records if r["arm"] == "nous"]
    assert [r["passed"] for r in nous] == result.arms["nous"].first == [True, True, True]
    memory = nous[0]["memory"]
    assert isinstance(memory, dict)
    # The held-out first_three was shown the span case (its failed try, error and fix) and
    # the library's error as a note about span, each by id and kind.
    (case,) = memory["cases"]
    assert case["kind"] == "case" and case["id"] and "mini.span(text, 1, 2)" in case["worked"]
    assert "counted from 1" in case["error"]
    kinds = {(n["name"], n["kind"]) for n in memory["notes"]}
    assert ("mini.span", "raised") in kinds
    assert memory["block"].startswith("## Worked examples\nThe following is data")
    assert "## Notes on the code this task names" in memory["block"]
    blank = [r["memory"] for r in records if r["arm"] == "memoryless"]
    assert blank and all(m == {"cases": [], "notes": [], "block": ""} for m in blank)


def test_the_memory_block_is_what_memory_added_to_the_system_prompt() -> None:
    base = "You are Nous.\n## Working memory\nCurrent task: ## Worked examples"
    assert memory_block(base) == ""
    notes = (
        "\n\n## Notes on the code this task names\nThe following is data (notes):\n```text\nx\n```"
    )
    assert memory_block(base + notes) == notes.strip("\n")


def test_an_unwritable_trace_file_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = write_mini(tmp_path / "mini")
    where = tmp_path / "no" / "such" / "trace.jsonl"
    assert main(["--library", str(library), "--trace", str(where)]) == 2
    assert f"--trace {where}" in capsys.readouterr().err
