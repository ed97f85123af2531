"""Run the tests that matter first, learned: what a code change's test run starts with.

A template with ``tests_first: true`` (the code-repository pack's whole-suite
run, for Python) runs in two phases when something is known about the change:
first its command with the test files that matter appended (``python3 -m
pytest -q tests/test_db.py …``), then, only if they pass, its whole command.
The files that matter, in this order:

1. those that runs started by a change to the same files failed before
   (:meth:`graph.store.test_runs.TestRunStore.broken_by`, learned by
   :func:`cognition.learn.test_failures.remember_failed_tests`);
2. those that import a changed module (:mod:`cognition.act.imports`).

Where nothing is known, or ``executor.tests_first`` is off, the command is the
whole suite as it always was. The executor runs the phases
(:class:`cognition.act.executors.command.CommandExecutor`): a failure in the
first is the run's failure, its failing tests named.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections.abc import Sequence
from pathlib import Path

from cognition.act.action import PlannedAction
from cognition.act.burst import burst_paths
from cognition.act.command import ARGV_PARAM, FIRST_PARAM
from cognition.act.imports import ImportGraph
from cognition.act.templates import TemplateRegistry
from graph.models import Observation
from graph.store.test_runs import TestRunStore

log = logging.getLogger(__name__)

MAX_FIRST = 50
"""Test files run first at most; the whole suite follows anyway."""
_TEST_NAME = re.compile(r"(?:^|/)(?:test_[^/]*|[^/]*_test)\.py$")


def is_test_file(path: str) -> bool:
    """Whether ``path`` is named as pytest collects test files (``test_*.py``, ``*_test.py``)."""
    return _TEST_NAME.search(path) is not None


class TestOrder:
    """Puts the tests that matter first in a ``tests_first`` template's command."""

    __test__ = False  # not a pytest class

    def __init__(
        self,
        runs: TestRunStore,
        root: Path,
        templates: TemplateRegistry,
        *,
        enabled: bool = True,
        max_first: int = MAX_FIRST,
    ) -> None:
        self.runs = runs
        self.root = root.resolve()
        self.templates = templates
        self.enabled = enabled
        self.max_first = max_first
        self.imports = ImportGraph(self.root)

    async def arrange(
        self, planned: PlannedAction | None, batch: Sequence[Observation]
    ) -> PlannedAction | None:
        """``planned`` with the test files to run first, when its template asks and any is known."""
        if not self.enabled or planned is None or planned.template not in self.templates.names():
            return planned
        if not self.templates.get(planned.template).tests_first:
            return planned
        if not isinstance(planned.params.get(ARGV_PARAM), list):
            return planned
        first = await self.select(burst_paths(batch))
        if not first:
            return planned
        params = {**planned.params, FIRST_PARAM: first}
        listed = ", ".join(first[:10]) + (f" and {len(first) - 10} more" if len(first) > 10 else "")
        prompt = f"{planned.prompt.rstrip()}\n\nFirst the tests that matter: {listed}\n"
        return dataclasses.replace(planned, params=params, prompt=prompt)

    async def select(self, changed: Sequence[str]) -> list[str]:
        """The test files to run first for a change to ``changed``: learned, then importing."""
        if not changed:
            return []
        learned = [b.path for b in await self.runs.broken_by(changed, self.max_first)]
        try:
            importing = await asyncio.to_thread(self.imports.importers, changed, is_test_file)
        except OSError:
            log.exception("reading the import graph under %s failed", self.root)
            importing = []
        chosen = [p for p in dict.fromkeys([*learned, *importing]) if self._present(p)]
        return chosen[: self.max_first]

    def _present(self, path: str) -> bool:
        """A regular test file inside the root, as named (the learned ones may be gone)."""
        if path.startswith(("-", "/")) or ".." in path.split("/"):
            return False
        target = self.root / path
        try:
            return (
                target.is_file()
                and not target.is_symlink()
                and target.resolve().is_relative_to(self.root)
            )
        except OSError:
            return False
