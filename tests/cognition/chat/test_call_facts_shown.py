"""On the chat path: per library function, what its calls returned and the error that taught
its convention reach a later prompt; a failed assert is kept only against the call the evidence
implicates, and never shown."""

from __future__ import annotations

from cognition.chat.turns import ToolResult
from graph.models import NoteKind
from graph.store.memory import Memory
from tests.cognition.chat.test_code_notes import layer_of, turn
from tests.cognition.test_call_facts import AVG, FAILED, HELD, SHARE, SHARE_FIXED

SHARE_TASK = (
    "Write `share(part, whole)` that returns `part` divided by `whole`, using `tally.ratio`."
)
PRICE_TASK = (
    "Write `price_per_kg(price, kg)` that returns `price` divided by `kg`, using `tally.ratio`."
)


def check(code: str, error: str | None = None, result: str = "") -> ToolResult:
    """One test run of ``code``, as bench.lessons reports it (a pass lists its asserts)."""
    return ToolResult(
        tool_name="run_tests",
        arguments={"file_path": "solution.py", "code": code},
        result=None if error else result or "3 of 3 tests passed",
        error=error,
    )


async def test_what_a_call_returned_reaches_a_later_prompt_naming_the_function(
    memory: Memory,
) -> None:
    layer = layer_of(memory)
    await turn(layer, "s-1", SHARE_TASK, check(SHARE, FAILED), check(SHARE_FIXED, result=HELD))
    kinds = [n.kind for n in await memory.code_notes.active()]
    assert kinds.count(NoteKind.RETURNED) == 3  # two from the failure, one from the pass
    assert NoteKind.FAILED_ASSERT not in kinds  # the values speak for the call
    shown = await turn(layer, "s-2", PRICE_TASK)
    notes = shown.split("## Notes on the code this task names")[1]
    assert (
        "- `tally.ratio(4, 1)` returned 0.25" in notes or "tally.ratio(1, 4)` returned 4.0" in notes
    )
    first = notes.index("returned")
    assert first < notes.index("worked: 3 of 3 tests passed")  # the fact comes first
    assert "passed line" not in notes  # a worked note keeps the summary, not the listing


async def test_a_library_error_stays_with_the_fix_when_the_pass_makes_the_same_call(
    memory: Memory,
) -> None:
    failed = (
        "import tally\n\ndef total(amounts):\n    ledger = tally.new_ledger('t')\n"
        "    for a in amounts:\n        tally.post(ledger, a)\n    return tally.balance(ledger)\n"
    )
    fixed = failed.replace("    for a", "    tally.open_ledger(ledger)\n    for a")
    error = (
        "1 of 2 tests passed\nFAILED line 2: assert total([1]) == 100 (raised RuntimeError: "
        "ledger 't' is not open: call open_ledger(ledger) before post)"
    )
    layer = layer_of(memory)
    task = "Write `total(amounts)` posting each amount to a new ledger, using `tally.post`."
    await turn(layer, "s-1", task, check(failed, error), check(fixed))
    shown = await turn(layer, "s-2", "Write `overdrawn(amounts)` using `tally.post`.")
    # Before: the pass made the very call `tally.post(ledger, a)`, so the error was retired.
    assert "raised RuntimeError: ledger 't' is not open" in shown
    assert "(then `tally.open_ledger(ledger)` worked)" in shown


async def test_a_failed_assert_is_kept_against_the_call_the_fix_dropped_and_never_shown(
    memory: Memory,
) -> None:
    both = AVG.format("tally.round(tally.sum(values) / len(values))")
    fixed = AVG.format("tally.round(sum(values) / len(values))")
    error = (
        "0 of 1 tests passed\nFAILED line 2: assert avg([1, None]) == 1.0 (raised TypeError: bad /)"
    )
    layer = layer_of(memory)
    await turn(layer, "s-1", "Write `avg(values)` using `tally.sum` and `tally.round`.",
               check(both, error), check(fixed))  # fmt: skip
    notes = await memory.code_notes.active()
    blamed = [n.qualified for n in notes if n.kind is NoteKind.FAILED_ASSERT]
    assert blamed == ["tally.sum"]  # kept against the call the fix dropped, not tally.round
    rounded = await turn(layer, "s-2", "Write `tidy_all(values)` using `tally.round`.")
    assert "`tally.round`:" in rounded and "failed the test" not in rounded
    # Nor is it shown against tally.sum: a prompt never carries code that failed on its own.
    summed = await turn(layer, "s-3", "Write `mean_or_none(values)` using `tally.sum`.")
    section = summed.partition("## Notes on the code this task names")[2]
    assert "avg([1, None])" not in section and "tally.round(tally.sum" not in section
