"""Asserts that call the library, made literal when the library is loaded.

The checks run apart from the solution, and without the library (it is the
solution's side: :mod:`rsi.check_runner`), so an assert such as
``assert first_two('abc') == tally.span('abc', 1, 2)`` would fail every
attempt, right or wrong. A library's author writes such asserts naturally,
so :func:`literal_tests` rewrites them before anything runs: each call of a
library function whose arguments are literals, and each library constant, is
replaced by the value it gives (``assert first_two('abc') == 'ab'``), which
is also what the model reads back when the assert fails.

The values come from the library folder's own module, imported afresh for
each assert, so a library with state (a ledger to open before posting)
starts clean, as it would in a check. What cannot be made literal (an
argument that is not a literal, a call that raises, a value with no literal
form) is left as written; :func:`bench.lessons_library.library_warnings`
names it before the run.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

# A value longer than this as a literal is left as a call: an assert line stays readable.
MAX_LITERAL_CHARS = 2_000


def named(tests: Iterable[str]) -> set[str]:
    """The names ``tests`` use as ``name.attribute`` (modules among them)."""
    return {
        node.value.id
        for test in tests
        for node in ast.walk(ast.parse(test))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
    }


def literal_tests(module_path: Path, name: str, tests: Sequence[str]) -> tuple[str, ...]:
    """``tests`` with the library ``name``'s calls and constants replaced by their values."""
    rewritten = []
    for test in tests:
        if name not in named([test]):
            rewritten.append(test)
            continue
        tree = ast.parse(test)
        _Literal(name, _fresh(module_path, name)).visit(tree)
        rewritten.append(ast.unparse(tree))
    return tuple(rewritten)


def _fresh(module_path: Path, name: str) -> ModuleType:
    """A new import of the library's module (the operator's own file, as ``import`` runs it)."""
    spec = importlib.util.spec_from_file_location(f"_nous_lessons_{name}", module_path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{module_path}: not importable")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Literal(ast.NodeTransformer):
    """Library calls with literal arguments, innermost first, and constants, as literals."""

    def __init__(self, name: str, module: ModuleType) -> None:
        self.name, self.module = name, module

    def _ours(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id == self.name

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)  # arguments first: lib.f(lib.g(1)) needs g's value
        func = node.func
        if not (isinstance(func, ast.Attribute) and self._ours(func.value)):
            return node
        try:
            args = [ast.literal_eval(arg) for arg in node.args]
            kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg}
            if len(kwargs) != len(node.keywords):
                return node  # a **mapping: not a literal call
            value = getattr(self.module, func.attr)(*args, **kwargs)
        except Exception:  # the library's own error: the call stays, and is said
            return node
        return _literal(value) or node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if not (self._ours(node.value) and isinstance(node.ctx, ast.Load)):
            return self.generic_visit(node)
        value = getattr(self.module, node.attr, None)
        if value is None or callable(value):
            return node  # a function is replaced where it is called, in visit_Call
        return _literal(value) or node


def _literal(value: Any) -> ast.expr | None:
    """``value`` as a literal expression, if its ``repr`` reads back as the same value."""
    text = repr(value)
    if len(text) > MAX_LITERAL_CHARS:
        return None
    try:
        if ast.literal_eval(text) != value:
            return None
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return ast.parse(text, mode="eval").body
