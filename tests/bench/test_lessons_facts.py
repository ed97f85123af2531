"""bench.lessons: what a practice task's calls returned reaches a held-out task's first prompt.

The library's ``ratio(a, b)`` divides ``b`` by ``a`` and says nothing when called
the other way round: only the values a test saw reveal it. The scripted model
swaps the arguments only when its prompt shows what a ``ratio`` call returned.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench.lessons import run_lessons
from bench.lessons_library import load_library
from bench.lessons_trace import Trace, read_trace
from cognition.llm import LLMClient
from graph.settings import LLMSettings, Settings
from graph.store.driver import GraphDriver
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply

MINI = "def ratio(a, b):\n    return b / a\n"
TASKS = [
    ("p_share", "share", "part, whole",
     ["assert share(1, 4) == 0.25", "assert share(3, 4) == 0.75"], "practice"),
    ("h_per_kg", "per_kg", "price, kg", ["assert per_kg(6, 3) == 2.0"], "held_out"),
    ("h_speed", "speed", "km, hours", ["assert speed(10, 4) == 2.5"], "held_out"),
]  # fmt: skip
FACT = re.compile(r"`mini\.ratio\([^`]*\)` returned \S+")


def write_mini(folder: Path) -> Path:
    folder.mkdir()
    (folder / "mini.py").write_text(MINI)
    (folder / "signatures.md").write_text("- `mini.ratio(a, b)`\n")
    rows = [
        {"id": i, "prompt": f"Write `{e}({a})` that divides its first argument by its second, "
         "using `mini.ratio`.", "entry_point": e, "tests": tests, "split": split}
        for i, e, a, tests, split in TASKS
    ]  # fmt: skip
    (folder / "tasks.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return folder


def model(request: RecordedRequest) -> Reply:
    """The natural order at first; the right one after its own failed test, or when the
    prompt shows what a ratio call returned."""
    system, user = str(request.messages[0]["content"]), str(request.messages[-1]["content"])
    entry = re.search(r"defines `(\w+)`", user)
    assert entry, user
    _, name, args, _, _ = next(t for t in TASKS if t[1] == entry.group(1))
    first, second = args.split(", ")
    knows = "Your previous attempt" in user or FACT.search(system) is not None
    call = f"mini.ratio({second}, {first})" if knows else f"mini.ratio({first}, {second})"
    return Reply.text(f"```python\nimport mini\n\n\ndef {name}({args}):\n    return {call}\n```")


async def test_what_practice_saw_a_call_return_reaches_the_held_out_first_prompts(
    driver: GraphDriver, tmp_path: Path
) -> None:
    library = load_library(write_mini(tmp_path / "mini"))
    path = tmp_path / "trace.jsonl"
    trace = Trace.open(path)
    with LLMStub(default=model, model="stub-coder") as stub:
        settings = Settings(llm=LLMSettings(base_url=stub.base_url))
        async with LLMClient(settings.llm) as llm:
            result = await run_lessons(
                llm, settings, driver, library, practice_rounds=1, arms=("memoryless", "nous"),
                trace=trace,
            )  # fmt: skip
    trace.close()
    assert result.practice_rounds == [(1, 1)]
    assert result.arms["memoryless"].first == [False, False]
    assert result.arms["nous"].first == [True, True]
    held = [r for r in read_trace(path) if r["arm"] == "nous"]
    memory = held[0]["memory"]
    assert isinstance(memory, dict)
    facts = {(n["call"], n["text"]) for n in memory["notes"] if n["kind"] == "returned"}
    # The newest first: from practice's pass (the asserts that held).
    assert ("mini.ratio(4, 1)", "0.25") in facts
    assert all(n["kind"] != "failed_assert" for n in memory["notes"])
