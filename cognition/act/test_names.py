"""The failing tests a test run's output names, and the test files they are in.

pytest's summary names each failing test as ``FAILED path::test`` (``ERROR``
for an error in a fixture or at collection); the path part is a file relative
to where the run started, the watched root. One home for reading them: ``nous
status`` names them (:mod:`scheduler.cli.runs`) and the learned test order
remembers them (:mod:`cognition.act.test_order`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)
# A test file as pytest names one: a relative path of plain parts, ending .py.
_TEST_FILE = re.compile(r"(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+\.py")


def failing_tests(text: str | None) -> list[str]:
    """The tests ``text`` names as failed (``FAILED path::test`` lines), in order, once each."""
    return list(dict.fromkeys(_FAILED.findall(text or "")))


def by_test_file(tests: Iterable[str]) -> dict[str, list[str]]:
    """``tests`` grouped by the file each is in; a name with no plain relative file is left out.

    ``tests/test_db.py::test_insert[1]`` is in ``tests/test_db.py``; a path that
    climbs (``..``) or is absolute names nothing inside the root.
    """
    files: dict[str, list[str]] = {}
    for test in tests:
        path = test.split("::", 1)[0]
        if not _TEST_FILE.fullmatch(path) or ".." in path.split("/"):
            continue
        files.setdefault(path, []).append(test)
    return files
