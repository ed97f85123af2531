"""A bench.lessons library: a folder holding a module, its signatures and its tasks.

- ``<name>.py``: the module the tasks import (``import <name>``);
- ``signatures.md``: what the agent is shown (names and signatures, nothing more);
- ``tasks.jsonl``: one task a line: ``id``, ``prompt``, ``entry_point``, ``tests``
  (assert lines), ``split`` (``practice`` or ``held_out``).

:func:`load_library` checks all of it and names the file, line and key of
anything wrong. :func:`lesson_problem` turns a task into a problem practice's
sandbox checks (each assert reports on its own, with what came out), and
:func:`solution_module` makes the module the checks import: a preamble writes
the library beside it in the sandbox's private folder, then the agent's code.
"""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from bench.lessons_values import ValuesError, literal_tests, named
from rsi.problems import Problem

MAX_FILE_BYTES = 2_000_000
SPLITS = ("practice", "held_out")
_KEYS = ("id", "prompt", "entry_point", "tests", "split")


class LibraryError(ValueError):
    """A library folder that cannot be used, naming the file, line and key."""


@dataclass(frozen=True)
class LessonTask:
    """One task: what to write, the function's name, its assert lines, its split."""

    id: str
    prompt: str
    entry_point: str
    tests: tuple[str, ...]
    split: Literal["practice", "held_out"]


@dataclass(frozen=True)
class Library:
    """A library folder, loaded: its module's name and source, signatures and tasks."""

    name: str
    source: str
    signatures: str
    tasks: tuple[LessonTask, ...]

    def split(self, which: str) -> list[LessonTask]:
        """The tasks of one split, in file order."""
        return [t for t in self.tasks if t.split == which]


def _read(path: Path) -> str:
    if not path.is_file():
        raise LibraryError(f"{path}: missing (a library folder holds <name>.py, "
                           "signatures.md and tasks.jsonl)")  # fmt: skip
    if path.stat().st_size > MAX_FILE_BYTES:
        raise LibraryError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LibraryError(f"{path}: unreadable: {exc}") from None


def load_library(folder: Path) -> Library:
    """The library in ``folder``; :class:`LibraryError` names what is wrong."""
    if not folder.is_dir():
        raise LibraryError(f"{folder}: not a library folder")
    modules = sorted(p for p in folder.glob("*.py") if p.stem.isidentifier())
    if len(modules) != 1:
        raise LibraryError(f"{folder}: needs exactly one <name>.py, found {len(modules)}")
    source = _read(modules[0])
    try:
        ast.parse(source)
    except SyntaxError as exc:
        raise LibraryError(f"{modules[0]}: not valid Python: {exc}") from None
    signatures = _read(folder / "signatures.md")
    tasks_file = folder / "tasks.jsonl"
    tasks = [
        _task(line, tasks_file, number)
        for number, line in enumerate(_read(tasks_file).splitlines(), 1)
        if line.strip()
    ]
    ids = [t.id for t in tasks]
    if len(set(ids)) != len(ids):
        raise LibraryError(f"{tasks_file}: task ids repeat")
    name = modules[0].stem
    if any(name in named(t.tests) for t in tasks):
        try:
            values = literal_tests(modules[0], name, [t.tests for t in tasks])
        except ValuesError as exc:
            raise LibraryError(f"{modules[0]}: {exc}") from exc
        tasks = [replace(t, tests=tests) for t, tests in zip(tasks, values, strict=True)]
    return Library(name, source, signatures, tuple(tasks))


def library_warnings(library: Library) -> list[str]:
    """What in ``library`` cannot be checked as written: an assert still naming the library.

    The checks run apart from the solution and without the library (it is
    the solution's side). :func:`load_library` made literal what it could
    (:mod:`bench.lessons_values`); an assert that still names the library
    fails every attempt, right or wrong, and the bench says so before it
    runs rather than refusing the folder.
    """
    return [
        f"task {task.id}: the assert {test[:80]!r} names the library {library.name!r}, which "
        "the checks run without (its value could not be worked out when the library was "
        "loaded): it fails every attempt; write the value it should give"
        for task in library.tasks
        for test in task.tests
        if library.name in named([test])
    ]


def _task(line: str, path: Path, number: int) -> LessonTask:
    where = f"{path} line {number}"
    try:
        row = json.loads(line)
    except ValueError as exc:
        raise LibraryError(f"{where}: not JSON: {exc}") from None
    if not isinstance(row, dict):
        raise LibraryError(f"{where}: not a JSON object")
    for key in _KEYS:
        if key not in row:
            raise LibraryError(f"{where}: key {key!r} missing")
    tests = row["tests"]
    if not isinstance(tests, list) or not tests or not all(isinstance(t, str) for t in tests):
        raise LibraryError(f"{where}: key 'tests' must be a non-empty list of assert lines")
    for test in tests:
        try:
            parsed = ast.parse(test)
        except SyntaxError:
            raise LibraryError(f"{where}: key 'tests': not Python: {test[:80]!r}") from None
        if len(parsed.body) != 1 or not isinstance(parsed.body[0], ast.Assert):
            raise LibraryError(f"{where}: key 'tests': not one assert: {test[:80]!r}")
    entry = row["entry_point"]
    if not isinstance(entry, str) or not entry.isidentifier():
        raise LibraryError(f"{where}: key 'entry_point' must be a Python name")
    if row["split"] not in SPLITS:
        raise LibraryError(f"{where}: key 'split' must be one of {SPLITS}")
    if not isinstance(row["id"], str) or not isinstance(row["prompt"], str):
        raise LibraryError(f"{where}: keys 'id' and 'prompt' must be strings")
    return LessonTask(row["id"], row["prompt"], entry, tuple(tests), row["split"])


def lesson_problem(task: LessonTask, library: str) -> Problem:
    """The task as a problem the sandbox checks, one report per assert line.

    The checks run apart from the solution (:mod:`rsi.check_runner`) and see
    its functions, not its imports: an assert that names a standard module
    (``math.isclose(...)``) would fail a right answer with a NameError, and
    teach the model to mend the test instead of its code. So the check
    imports the standard modules its asserts name. The library itself stays
    out of the checker (it is the solution's side): :func:`load_library` made
    its calls literal (:mod:`bench.lessons_values`).
    """
    # Not the library's own name, though a standard module's: that is the library's call.
    standard = named(task.tests) & sys.stdlib_module_names - {task.entry_point, library}
    body = "".join(f"    import {name}\n" for name in sorted(standard))
    body += "".join(f"    {test}\n" for test in task.tests)
    return Problem(task.id, task.prompt, task.entry_point, check=f"def check(candidate):\n{body}")


def solution_module(library: Library, code: str) -> str:
    """The module the checks import: the library written first, then ``code`` (its
    ``from __future__`` lines kept first, where Python requires them).

    The library goes to a folder of its own under the run's TMPDIR and onto ``sys.path``:
    the task's folder is read-only to the run (the sandbox's ``/tmp/task``)."""
    lines = code.splitlines()
    future = [line for line in lines if line.startswith("from __future__")]
    rest = [line for line in lines if not line.startswith("from __future__")]
    preamble = (
        "import importlib as _nous_importlib\n"
        "import pathlib as _nous_pathlib\n"
        "import sys as _nous_sys\n"
        "import tempfile as _nous_tempfile\n"
        "_nous_home = _nous_pathlib.Path(_nous_tempfile.mkdtemp(prefix='library-'))\n"
        f"(_nous_home / {library.name + '.py'!r}).write_text(\n"
        f"    {library.source!r}, encoding='utf-8'\n)\n"
        "_nous_sys.path.insert(0, str(_nous_home))\n"
        "_nous_importlib.invalidate_caches()\n"
    )
    return "\n".join([*future, preamble, *rest]) + "\n"
