"""bench.lessons with code notes: a practice task that never passed still teaches the held-out ones.

The scripted model guesses 0-based positions unless something it is shown says
positions are counted from 1; on the practice task it never gets it right, so
the case bank stays empty, and only the library's error, kept as a note about
``span``, can reach the held-out tasks.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench.lessons import run_lessons
from bench.lessons_library import load_library
from cognition.chat.code_notes import NOTES_HEADING
from cognition.llm import LLMClient
from graph.settings import LLMSettings, Settings
from graph.store.driver import GraphDriver
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply

MINI = '''
def span(text, start, end):
    """Positions counted from 1, both ends included."""
    if start < 1:
        raise ValueError(f"span: positions are counted from 1, got start={start}")
    return text[start - 1 : end]


def label(name, value):
    return f"<{name}|{value}>"
'''
# id, entry point, arguments, what it returns, tests, split, the right body, the 0-based guess
TASKS = [
    ("p_first2", "first_two", "text", "the first 2 characters of `text`, using `mini.span`",
     ['assert first_two("abcd") == "ab"'], "practice", "mini.span(text, 1, 2)",
     "mini.span(text, 0, 2)"),
    ("h_first3", "first_three", "text", "the first 3 characters of `text`, using `mini.span`",
     ['assert first_three("abcd") == "abc"'], "held_out", "mini.span(text, 1, 3)",
     "mini.span(text, 0, 3)"),
    ("h_last2", "last_two", "text", "the last 2 characters of `text`, using `mini.span`",
     ['assert last_two("abcd") == "cd"'], "held_out", "mini.span(text, len(text) - 1, len(text))",
     "mini.span(text, len(text) - 2, len(text) - 1)"),
    ("h_tag", "tag", "name, value", "the mini label of `name` and `value`, using `mini.label`",
     ['assert tag("a", 1) == "<a|1>"'], "held_out", "mini.label(name, value)",
     "mini.label(name, value)"),
]  # fmt: skip
LESSON = "positions are counted from 1"


def write_mini(folder: Path) -> Path:
    folder.mkdir()
    (folder / "mini.py").write_text(MINI)
    (folder / "signatures.md").write_text(
        "- `mini.span(text, start, end)`\n- `mini.label(name, value)`\n"
    )
    rows = [
        {"id": i, "prompt": f"Write `{e}({a})` that returns {what}.", "entry_point": e,
         "tests": tests, "split": split}
        for i, e, a, what, tests, split, _, _ in TASKS
    ]  # fmt: skip
    (folder / "tasks.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return folder


def model(request: RecordedRequest) -> Reply:
    """Right only when what it is shown says positions are counted from 1; never on the
    practice task, so no practice attempt is ever verified."""
    system, user = str(request.messages[0]["content"]), str(request.messages[-1]["content"])
    entry = re.search(r"defines `(\w+)`", user)
    assert entry, user
    _, name, args, _, _, split, right, guess = next(t for t in TASKS if t[1] == entry.group(1))
    knows = split == "held_out" and (LESSON in system or LESSON in user)
    code = f"import mini\n\n\ndef {name}({args}):\n    return {right if knows else guess}\n"
    return Reply.text(f"```python\n{code}```")


async def test_a_failed_practice_tasks_library_error_reaches_the_held_out_first_attempts(
    driver: GraphDriver, tmp_path: Path
) -> None:
    library = load_library(write_mini(tmp_path / "mini"))
    with LLMStub(default=model, model="stub-coder") as stub:
        settings = Settings(llm=LLMSettings(base_url=stub.base_url))
        async with LLMClient(settings.llm) as llm:
            result = await run_lessons(llm, settings, driver, library, practice_rounds=1)
        requests = stub.chat_requests
    assert result.practice_rounds == [(1, 0)] and result.cases_after_practice == 0
    arms = result.arms
    assert arms["memoryless"].first == [False, False, True]  # tag needs no lesson
    assert arms["nous"].first == [True, True, True]
    assert result.mcnemar["nous vs memoryless"]["nous only"] == 2
    firsts = [r for r in requests if "Your previous attempt" not in str(r.messages[-1]["content"])]
    noted = [str(r.messages[0]["content"]) for r in firsts if NOTES_HEADING in str(r.messages)]
    # nous on the two span tasks; random on all three (it draws whatever the prompt names);
    # never memoryless.
    assert len(noted) == 5
    assert all("`mini.span`:" in s and "got start=0" in s for s in noted)
    assert all("The following is data (notes from your memory" in s for s in noted)
    # The arms differ only in memory: each task's first user message is the same in every arm.
    users: dict[str, set[str]] = {}
    for request in firsts:
        user = str(request.messages[-1]["content"])
        users.setdefault(re.findall(r"defines `(\w+)`", user)[0], set()).add(user)
    assert all(len(seen) == 1 for seen in users.values())
