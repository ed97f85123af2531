"""Call facts: what a library call returned, read off assert lines; who a failed assert blames."""

from __future__ import annotations

from cognition.call_facts import fix_line, implicated, returned_facts
from cognition.chat.code_notes import failure_notes
from graph.models import NoteKind

SHARE = "import tally\n\n\ndef share(part, whole):\n    return tally.ratio(part, whole)\n"
SHARE_FIXED = "import tally\n\n\ndef share(part, whole):\n    return tally.ratio(whole, part)\n"
FAILED = (
    "0 of 3 tests passed\n"
    "FAILED line 2: assert share(1, 4) == 0.25 (got 4.0, expected 0.25)\n"
    "FAILED line 3: assert share(3, 4) == 0.75 (got 1.3333333333333333, expected 0.75)\n"
    "FAILED line 4: assert share(5, 2) == 2.5 (got 0.4, expected 2.5)"
)
AVG = "import tally\n\ndef avg(values):\n    return {}\n"
HELD = "3 of 3 tests passed\npassed line 2: assert share(1, 4) == 0.25\n"


def test_a_failed_assert_on_a_direct_call_says_what_the_call_returned() -> None:
    facts = returned_facts(SHARE, FAILED, passed=False)
    assert [(f.qualified, f.kind, f.call, f.text) for f in facts] == [
        ("tally.ratio", NoteKind.RETURNED, "tally.ratio(1, 4)", "4.0"),
        ("tally.ratio", NoteKind.RETURNED, "tally.ratio(3, 4)", "1.3333333333333333"),
    ]  # at most two a function
    assert facts[0].key != facts[1].key  # other literals are another fact
    # A held assert gives the expected side; a failed run's asserts are not read as held.
    [held] = returned_facts(SHARE_FIXED, HELD, passed=True)
    assert (held.call, held.text) == ("tally.ratio(4, 1)", "0.25")
    assert returned_facts(SHARE, FAILED, passed=True) == []


def test_pytests_report_of_a_failed_assert_says_what_the_call_returned_too() -> None:
    pytest_output = (
        "    def test_share():\n>       assert share(1, 4) == 0.25\nE       assert 4.0 == 0.25\n"
        "E        +  where 4.0 = share(1, 4)\n\ntest_share.py:4: AssertionError"
    )
    [fact] = returned_facts(SHARE, pytest_output, passed=False)
    assert (fact.call, fact.text) == ("tally.ratio(1, 4)", "4.0")


def test_no_fact_without_a_direct_call_readable_arguments_or_a_value() -> None:
    wrapped = (
        "import tally\n\ndef share(part, whole):\n    x = tally.ratio(part, whole)\n    return x\n"
    )
    assert returned_facts(wrapped, FAILED, passed=False) == []
    free = "import tally\n\ndef share(part, whole):\n    return tally.ratio(LIMIT, whole)\n"
    assert returned_facts(free, FAILED, passed=False) == []
    raised = "FAILED line 2: assert share(1, 4) == 0.25 (raised ZeroDivisionError: a is 0)"
    assert returned_facts(SHARE, raised, passed=False) == []
    builtin = "def share(part, whole):\n    return round(part, whole)\n"  # no library call
    assert returned_facts(builtin, FAILED, passed=False) == []
    assert returned_facts("import tally\ndef share(:\n", FAILED, passed=False) == []
    hostile = "FAILED line 2: assert share(" + "(" * 5000 + " (got 1, expected 2)"
    assert returned_facts(SHARE, hostile, passed=False) == []


QTY = (
    "import stock\n\ndef qty(text):\n    try:\n        return stock.parse(text)\n"
    "    except ValueError:\n        return -1\n"
)


def test_a_call_returned_inside_try_says_what_it_returned_unless_a_handler_could_have() -> None:
    # The first thing a model writes for a library that reports failure as a value.
    failed = (
        "FAILED line 2: assert qty('12 pcs') == 12 (got (True, 12), expected 12)\n"
        "FAILED line 3: assert qty('many') == 0 (got -1, expected 0)\n"
    )
    [fact] = returned_facts(QTY, failed, passed=False)
    assert (fact.call, fact.text) == ("stock.parse('12 pcs')", "(True, 12)")
    # -1 is what the handler returns: the call may have raised, so nothing is said of it.
    held = "passed line 2: assert qty('many') == -1\npassed line 3: assert qty('3') == (True, 3)"
    [fact] = returned_facts(QTY, held, passed=True)
    assert (fact.call, fact.text) == ("stock.parse('3')", "(True, 3)")
    # A handler that returns something other than a literal could return anything.
    for handler in ("return text", "pass", "print(text)"):
        code = QTY.replace("return -1", handler)
        assert returned_facts(code, failed, passed=False) == [], handler
    reraised = QTY.replace("return -1", "raise")
    assert len(returned_facts(reraised, failed, passed=False)) == 2
    with_finally = QTY + "    finally:\n        text = ''\n"
    assert returned_facts(with_finally, failed, passed=False) == []


def test_a_failed_assert_blames_only_what_the_evidence_implicates() -> None:
    both = AVG.format("tally.round(tally.sum(values) / len(values))")
    fixed = AVG.format("tally.round(sum(values) / len(values))")
    # The fix dropped tally.sum; tally.round changed only around it: sum is blamed, not round.
    assert implicated(both, fixed) == {"sum"}
    unpacked = "import tally\n\ndef avg(values):\n    t, n = tally.sum(values)\n    return t / n\n"
    assert implicated(both, unpacked) == set()  # round dropped, but sum was nested in it
    unpacked_round = unpacked.replace("return t / n", "return tally.round(t / n)")
    assert implicated(both, unpacked_round) == set()  # neither call's own arguments changed
    # No fix: one library name called is blamed; two are not told apart.
    assert implicated(SHARE, None) == {"ratio"}
    assert implicated(both, None) == set()
    assert implicated(SHARE, SHARE_FIXED) == {"ratio"}
    assert implicated(SHARE, SHARE) == set()
    output = "FAILED line 2: assert avg([1, 2]) == 1.5 (raised TypeError: unsupported / for tuple)"
    notes = failure_notes(output, both, fixed)
    assert [(n.qualified, n.kind) for n in notes] == [("tally.sum", NoteKind.FAILED_ASSERT)]
    assert failure_notes(output, both, None) == []
    # Old behaviour blamed every call; a direct call's value speaks for it instead.
    assert [n.kind for n in failure_notes(FAILED, SHARE, SHARE_FIXED)] == [NoteKind.RETURNED] * 2


def test_a_library_error_is_shown_with_the_line_of_the_fix_that_then_worked() -> None:
    failed = (
        "import tally\n\ndef total(amounts):\n    ledger = tally.new_ledger('t')\n"
        "    for a in amounts:\n        tally.post(ledger, a)\n    return tally.balance(ledger)\n"
    )
    fixed = (
        'import tally\n\ndef total(amounts):\n    ledger = tally.new_ledger("t")\n'
        "    tally.open_ledger(ledger)\n    for a in amounts:\n        tally.post(ledger, a)\n"
        "    return tally.balance(ledger)\n"
    )
    error = "RuntimeError: ledger 't' is not open: call open_ledger(ledger) before post"
    assert fix_line("post", error, failed, fixed) == "tally.open_ledger(ledger)"
    output = f"FAILED line 2: assert total([1]) == 100 (raised {error})"
    [note] = failure_notes(output, failed, fixed)
    assert note.kind is NoteKind.RAISED and note.qualified == "tally.post"
    assert note.text.endswith("(then `tally.open_ledger(ledger)` worked)")
    assert fix_line("post", error, failed, failed) == ""
