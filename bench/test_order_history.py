"""A history with failures for ``bench.test_order``: small breaking edits to a real project.

Nothing here knows the project: its modules are its Python files that are not
tests, its functions what :mod:`ast` finds in them, and a break is one line,
``raise RuntimeError(...)``, put first in one function's body. A seeded draw
picks the modules and, per round, one function of each, so the same module is
broken again in later rounds (as a person keeps working on the same parts),
by a different function each time.
"""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass
from pathlib import Path

from cognition.act.test_order import is_test_file

BREAK = 'raise RuntimeError("nous bench: broken on purpose")'
_LEFT_OUT = ("setup.py", "conftest.py", "__main__.py")
_MIN_FUNCTIONS = 3


@dataclass(frozen=True)
class Break:
    """One step: the module, the function broken, and where its body starts."""

    module: str
    function: str
    line: int
    column: int

    def apply(self, root: Path) -> str:
        """Write the broken module; return its text before, to put back."""
        path = root / self.module
        before = path.read_text(encoding="utf-8")
        lines = before.splitlines(keepends=True)
        lines.insert(self.line - 1, " " * self.column + BREAK + "\n")
        path.write_text("".join(lines), encoding="utf-8")
        return before


def functions(root: Path, module: str) -> list[Break]:
    """Every function of ``module`` whose body starts on a line of its own."""
    try:
        tree = ast.parse((root / module).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0]
            if first.lineno > node.lineno:
                found.append(Break(module, node.name, first.lineno, first.col_offset))
    return found


def modules(root: Path) -> list[str]:
    """The project's modules: its ``.py`` files outside tests, build and docs folders."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        parts = rel.split("/")
        if is_test_file(rel) or path.name in _LEFT_OUT or path.is_symlink():
            continue
        if any(p in {"tests", "test", "docs", "build", "dist"} or p.startswith(".") for p in parts):
            continue
        if len(functions(root, rel)) >= _MIN_FUNCTIONS:
            out.append(rel)
    return out


def history(root: Path, how_many: int, rounds: int, seed: int) -> list[Break]:
    """``rounds`` rounds over ``how_many`` modules drawn with ``seed``: one break each."""
    draw = random.Random(seed)
    chosen = draw.sample(modules(root), k=min(how_many, len(modules(root))))
    steps = []
    for _ in range(rounds):
        for module in chosen:
            steps.append(draw.choice(functions(root, module)))
    return steps
