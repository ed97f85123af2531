"""HumanEval's ``check(candidate)`` without pytest: every assert reports, none stops the rest.

:func:`checks_module` rewrites the ``check`` function of a HumanEval test so
that each ``assert`` (top-level, in a loop, anywhere in ``check``) becomes a
call to ``_expect``, which the sandbox's runner (:mod:`rsi.check_runner`)
passes in and which records the assert's line, whether it held and, for an
``==``, what came out. A solution's score is the share of assert *statements*
that held every time they ran; one that never ran (``check`` stopped on an
exception first) did not hold.

The checks see nothing of the solution but its entry point, handed to
``check`` as ``candidate``: no ``from solution import *``, so a solution
that defines ``abs``, ``sorted`` or the spec's own helper (HumanEval/32's
``poly``, /38's ``encode_cyclic``) changes nothing the checks call. The
helpers, constants and imports of the spec that the checks use are taken
from the spec itself (the task's text, not the solution) and put before
``check`` (:func:`spec_prelude`).

The rewritten module is written as a file and imported by the runner; no
text is evaluated.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from dataclasses import dataclass

from rsi.errors import RSIError

EXPECT = "_expect"
# One failing assert's report in the output the model reads back.
_FAILURE_LIMIT = 300
_MAX_FAILURES = 20


@dataclass(frozen=True)
class Checks:
    """A HumanEval test rewritten for the runner, and the lines of its asserts."""

    source: str
    entry_point: str
    assert_lines: tuple[int, ...]


@dataclass(frozen=True)
class Verdict:
    """What the runner reported: asserts held, asserts in all, and readable failures."""

    passed: int
    total: int
    failures: tuple[str, ...]
    error: str | None


class _Rewrite(ast.NodeTransformer):
    def __init__(self) -> None:
        self.lines: list[int] = []

    def visit_Assert(self, node: ast.Assert) -> ast.stmt:
        self.lines.append(node.lineno)
        text = ast.unparse(node.test)
        if (
            isinstance(node.test, ast.Compare)
            and len(node.test.ops) == 1
            and isinstance(node.test.ops[0], ast.Eq)
        ):
            # Both sides apart, so a failure says what came out and what was expected.
            parts = [node.test.left, node.test.comparators[0]]
        else:
            parts = [node.test]
        args: list[ast.expr] = [ast.Constant(node.lineno), ast.Constant(text)]
        args += [ast.Lambda(_no_args(), part) for part in parts]
        call = ast.Call(ast.Name(EXPECT, ast.Load()), args, [])
        return ast.copy_location(ast.Expr(call), node)


def _no_args() -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])


@functools.lru_cache(maxsize=256)
def checks_module(check_source: str, entry_point: str, spec: str = "") -> Checks:
    """HumanEval's test source, ``check(candidate)`` rewritten as ``check(candidate, _expect)``,
    after what of ``spec`` (the task's prompt) it uses."""
    try:
        module = ast.parse(check_source)
    except SyntaxError as exc:
        raise RSIError(f"HumanEval test for {entry_point} does not parse: {exc}") from None
    prelude = spec_prelude(spec, entry_point, module)
    check = next(
        (n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "check"), None
    )
    if check is None or not check.args.args:
        raise RSIError(f"HumanEval test for {entry_point} has no check(candidate)")
    rewrite = _Rewrite()
    check.body = [rewrite.visit(statement) for statement in check.body]
    check.args.args.append(ast.arg(EXPECT))
    # The prelude's statements come first; the asserts keep the lines they were parsed at.
    module.body = [*prelude, *module.body]
    source = ast.unparse(ast.fix_missing_locations(module)) + "\n"
    # With no assert at all, the call of check itself is the one test.
    lines = tuple(sorted(set(rewrite.lines))) or (0,)
    return Checks(source, entry_point, lines)


def spec_prelude(spec: str, entry_point: str, check: ast.Module) -> list[ast.stmt]:
    """The spec's top-level statements ``check`` needs, in the spec's order.

    Its functions, classes and constants other than the entry point that the
    checks name (and, in turn, that those name), and the imports any of them or
    the checks use: HumanEval/32's ``import math`` and ``poly``. The spec is the
    task's text, never the solution's, so what these do is the task's. A spec
    that does not parse gives nothing (the checks then fail on the missing name).
    """
    try:
        tree = ast.parse(spec)
    except SyntaxError:
        return []
    defined: dict[str, ast.stmt] = {}
    for statement in tree.body:
        for name in _binds(statement):
            if name != entry_point and not isinstance(statement, ast.Import | ast.ImportFrom):
                defined.setdefault(name, statement)
    used = _loads(check)
    chosen: list[ast.stmt] = []
    wanted = [name for name in used if name in defined]
    while wanted:
        statement = defined[wanted.pop()]
        if any(statement is kept for kept in chosen):
            continue
        chosen.append(statement)
        names = _loads(statement)
        used |= names
        wanted += [name for name in names if name in defined]
    return [
        s
        for s in tree.body
        if any(s is kept for kept in chosen)
        or (isinstance(s, ast.Import | ast.ImportFrom) and bool(_binds(s) & used))
    ]


def task_names(spec: str) -> set[str]:
    """The names a task's spec defines at its top level (none when it does not parse)."""
    try:
        tree = ast.parse(spec)
    except SyntaxError:
        return set()
    return {
        name
        for s in tree.body
        if not isinstance(s, ast.Import | ast.ImportFrom)
        for name in _binds(s)
    }


def _binds(statement: ast.stmt) -> set[str]:
    """The global names a top-level statement binds."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {statement.name}
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in statement.names if a.name != "*"}
    if isinstance(statement, ast.Assign | ast.AnnAssign):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def _loads(node: ast.AST) -> set[str]:
    """Every name ``node`` reads, anywhere in it (annotations and defaults too)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def verdict(checks: Checks, report: Iterable[str]) -> Verdict:
    """Read the runner's records against the asserts ``checks`` holds.

    Records, one a line, fields split by tabs: ``assert LINE ok|failed TEXT`` for
    each assert run, ``check returned`` or ``check raised TEXT`` once, ``error
    TEXT`` when nothing could run. Only the lines the rewrite found count, so a
    torn record or one for a line that is not an assert is ignored. The solution
    cannot write records: it runs in a child of the runner that holds no descriptor
    of the report and cannot reach the runner's (:mod:`rsi.candidate`).
    """
    held: dict[int, bool] = {}
    failures: list[str] = []
    error: str | None = None
    returned = False
    for raw in report:
        kind, *fields = raw.rstrip("\n").split("\t")
        if kind == "error" and fields:
            error = fields[0][:_FAILURE_LIMIT]
        elif kind == "check" and fields[:1] == ["returned"]:
            returned = True
        elif kind == "check" and fields[:1] == ["raised"]:
            failures.append(f"check stopped: {' '.join(fields[1:])[:_FAILURE_LIMIT]}")
        elif kind == "assert" and len(fields) == 3 and fields[0].isdigit():
            line, ok = int(fields[0]), fields[1] == "ok"
            if line not in checks.assert_lines:
                continue  # not an assert of this check: a torn or forged record
            held[line] = held.get(line, True) and ok
            if not ok and len(failures) < _MAX_FAILURES:
                failures.append(f"line {line}: {fields[2][:_FAILURE_LIMIT]}")
    if checks.assert_lines == (0,):
        held[0] = returned
    passed = sum(1 for line in checks.assert_lines if held.get(line, False))
    if error is None and not held and not failures:
        error = "no check ran"
    return Verdict(passed, len(checks.assert_lines), tuple(failures), error)
