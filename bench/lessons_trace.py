"""bench.lessons ``--trace FILE``: one JSON line per attempt, to see why an arm did what it did.

Each line holds the arm, the task's id, the attempt's number (1 to 3), the
memory its prompt carried (the cases and code notes shown, each by id, kind
and text, and the block of the system prompt they made), the code extracted
from the reply, the test output and whether the tests passed. Practice rounds
are traced too (arm ``practice round N``), so a held-out prompt's memory can
be followed back to the practice attempts that wrote it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cognition.chat.code_notes import NOTES_HEADING
from graph.models import Case, CodeNote

CASES_HEADING = "## Worked examples"


def memory_block(system_prompt: str) -> str:
    """The part of a turn's system prompt that memory added (worked examples, code notes):
    from the first of their headings to the end ("" when memory added nothing)."""
    starts = [
        system_prompt.find(f"\n\n{heading}\nThe following is data")
        for heading in (CASES_HEADING, NOTES_HEADING)
    ]
    found = [s for s in starts if s >= 0]
    return system_prompt[min(found) :].strip("\n") if found else ""


def case_record(case: Case) -> dict[str, str]:
    """A case shown, as the trace keeps it."""
    return {
        "id": case.id,
        "kind": "case",
        "task": case.task,
        "failed_attempt": case.failed_attempt,
        "error": case.error,
        "worked": case.worked,
    }


def note_record(note: CodeNote) -> dict[str, str | int]:
    """A code note shown, as the trace keeps it."""
    return {
        "id": note.id,
        "kind": note.kind.value,
        "name": note.qualified,
        "call": note.call,
        "text": note.text,
        "seen": note.seen,
    }


@dataclass(frozen=True)
class Shown:
    """What one task's prompt carried from memory: the cases, the notes, the block they made."""

    cases: list[Case]
    notes: list[CodeNote]
    block: str


class Trace:
    """Writes attempt records to a JSON-lines file, one line each, flushed as it goes."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    @classmethod
    def open(cls, path: Path) -> Trace:
        """A trace writing to ``path`` (created or emptied); OSError names the path."""
        return cls(path.open("w", encoding="utf-8"))

    def attempt(
        self,
        *,
        arm: str,
        task: str,
        number: int,
        shown: Shown,
        code: str,
        output: str,
        passed: bool,
    ) -> None:
        """Write one attempt's line."""
        record = {
            "arm": arm,
            "task": task,
            "attempt": number,
            "memory": {
                "cases": [case_record(c) for c in shown.cases],
                "notes": [note_record(n) for n in shown.notes],
                "block": shown.block,
            },
            "code": code,
            "output": output,
            "passed": passed,
        }
        self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.out.flush()

    def close(self) -> None:
        """Close the file."""
        self.out.close()


def read_trace(path: Path) -> list[dict[str, object]]:
    """The records of a trace file, in order."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
