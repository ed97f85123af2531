"""Asserts that call the library, made literal when the library is loaded.

The checks run apart from the solution, and without the library (it is the
solution's side: :mod:`rsi.check_runner`), so an assert such as
``assert first_two('abc') == tally.span('abc', 1, 2)`` would fail every
attempt, right or wrong. A library's author writes such asserts naturally,
so :func:`literal_tests` rewrites them before anything runs: each call of a
library function whose arguments are literals, and each library constant, is
replaced by the value it gives (``assert first_two('abc') == 'ab'``), which
is also what the model reads back when the assert fails.

The values are worked out once, when the folder is loaded, in a child
process of the bench (``python -m bench.lessons_values``, bounded by
:data:`VALUES_TIMEOUT_S`), against a fresh import of the library for each
assert: so a library function the asserts call should give the same value
for the same arguments (one that reads the clock is frozen at load), and a
library with state (a ledger to open before posting) starts each assert
clean. What cannot be made literal (an argument that is not a literal, a
call that raises, a value with no literal form) is left as written;
:func:`bench.lessons_library.library_warnings` names it before the run.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import json
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

# A value longer than this as a literal is left as a call: an assert line stays readable.
MAX_LITERAL_CHARS = 2_000
VALUES_TIMEOUT_S = 60
_ROOT = Path(__file__).resolve().parents[1]
_MISSING = object()


class ValuesError(ValueError):
    """The library's values could not be worked out (its import failed, or it took too long)."""


def named(tests: Iterable[str]) -> set[str]:
    """The free names ``tests`` use as ``name.attribute`` (modules among them).

    A name the assert binds itself (``all(t.ok for t in ...)``, a lambda's
    argument) is not a module, whatever it is called.
    """
    found: set[str] = set()
    for test in tests:
        tree = ast.parse(test)
        bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not _loads(n)}
        bound |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.Lambda) for a in _args(n)}
        found |= {
            node.value.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        } - bound
    return found


def _loads(name: ast.Name) -> bool:
    return isinstance(name.ctx, ast.Load)


def _args(function: ast.Lambda) -> list[ast.arg]:
    spec = function.args
    extra = [a for a in (spec.vararg, spec.kwarg) if a is not None]
    return [*spec.posonlyargs, *spec.args, *spec.kwonlyargs, *extra]


def literal_tests(
    module_path: Path, name: str, tests: Sequence[Sequence[str]]
) -> list[tuple[str, ...]]:
    """Each task's ``tests`` with the library ``name``'s calls and constants replaced by
    their values, worked out in a child process; :class:`ValuesError` when that fails."""
    request = {"module": str(module_path), "name": name, "tests": [list(t) for t in tests]}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bench.lessons_values"],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=VALUES_TIMEOUT_S,
            cwd=_ROOT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ValuesError(
            f"working out the values its asserts name took more than {VALUES_TIMEOUT_S} s"
        ) from None
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise ValuesError(said[-1] if said else f"exit code {done.returncode}")
    return [tuple(t) for t in json.loads(done.stdout)]


def _rewrite(module_path: Path, name: str, tests: Sequence[str]) -> list[str]:
    rewritten = []
    for test in tests:
        if name not in named([test]):
            rewritten.append(test)
            continue
        tree = ast.parse(test)
        _Literal(name, _fresh(module_path, name)).visit(tree)
        rewritten.append(ast.unparse(tree))
    return rewritten


def _fresh(module_path: Path, name: str) -> ModuleType:
    """A new import of the library's module (the operator's own file, as ``import`` runs it)."""
    spec = importlib.util.spec_from_file_location(f"_nous_lessons_{name}", module_path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{module_path}: not importable")
    module = importlib.util.module_from_spec(spec)
    # Registered while it runs, as an import does: dataclasses look their module up there.
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
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
            return _literal(value) or node
        except Exception:  # the library's own error: the call stays, and is said
            return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if not (self._ours(node.value) and isinstance(node.ctx, ast.Load)):
            return self.generic_visit(node)
        value = getattr(self.module, node.attr, _MISSING)
        if value is _MISSING or callable(value):
            return node  # a function is replaced where it is called, in visit_Call
        try:
            return _literal(value) or node
        except Exception:  # a value whose repr or == raises: no literal
            return node


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


def main() -> int:
    """The child: a request on stdin, each task's tests rewritten as JSON on stdout."""
    request = json.load(sys.stdin)
    module_path, name = Path(request["module"]), str(request["name"])
    out = io.StringIO()  # what the library prints must not mix with the answer
    try:
        with contextlib.redirect_stdout(out):
            answer = [_rewrite(module_path, name, tests) for tests in request["tests"]]
    except Exception as exc:  # the import failed: said to the parent, which names the file
        print(f"cannot be imported: {exc!r}", file=sys.stderr)
        return 1
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
