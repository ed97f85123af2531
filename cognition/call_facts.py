"""Call facts (issue 25): what a library call returned, read off a test run's assert lines.

When a function of the code under test is nothing but ``return <library call>``
(``def share(part, whole): return tally.ratio(whole, part)``), every assert
on it says what that call returned for the test's arguments: a held
``assert share(1, 4) == 0.25`` says ``tally.ratio(4, 1)`` returned ``0.25``;
a failed one, ``assert share(1, 4) == 0.25 (got 4.0, expected 0.25)``, says
``tally.ratio(1, 4)`` returned ``4.0``. Either is true of the library whatever
the attempt's outcome, and is the most direct thing a small model can be
shown about a convention it cannot read off a signature.

Pure, no I/O; the code and the assert lines are parsed with :mod:`ast` and
never run: the value comes from the test line (the expected side of a held
assert, the ``got`` of a failed one). Only calls whose arguments are, once the
test's arguments are put in, literals or builtins over literals are kept, so
the fact reads on its own.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass

from cognition.code_notes import Observed, bounded_lines, outside_imports
from cognition.text import clip
from graph.models import NoteKind

# "FAILED line 3: assert share(1, 4) == 0.25 (got 4.0, expected 0.25)" (rsi.check_runner).
_FAILED = re.compile(r"\bassert\s+(?P<test>.+?)\s+\(got (?P<got>.+), expected .+\)\s*$")
_HELD = re.compile(r"\bassert\s+(?P<test>.+?)\s*$")
# pytest's "E   +  where 4.0 = share(1, 4)" under a failed "assert 4.0 == 0.25".
_WHERE = re.compile(r"\bwhere\s+(?P<got>.+?)\s+=\s+(?P<test>[A-Za-z_]\w*\(.*\))\s*$")
_BUILTINS = frozenset(dir(builtins))
_CODE_CHARS = 20_000
_FACT_CHARS = 200
# At most this many facts about one function of the code (its first asserts).
PER_FUNCTION = 2


@dataclass(frozen=True)
class DirectCall:
    """A function of the code whose body only returns one library call."""

    params: tuple[str, ...]
    call: ast.Call
    name: str
    qualified: str
    # The literal values its ``except`` handlers return (``ast.dump``): a value the tests saw
    # that is one of these may have come from a handler, not from the call.
    fallbacks: frozenset[str] = frozenset()


def _library_name(call: ast.Call, modules: dict[str, str], names: dict[str, str]) -> str | None:
    """The call's name as the code spelled it (``tally.span``) when it calls an outside
    module, else None."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}" if func.value.id in modules else None
    if isinstance(func, ast.Name) and func.id in names:
        return names[func.id]
    return None


def direct_calls(code: str) -> dict[str, DirectCall]:
    """The functions of ``code`` (by name) that do nothing but return a library call."""
    modules, names = outside_imports(code)
    if (not modules and not names) or len(code) > _CODE_CHARS:
        return {}
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, DirectCall] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults:
            continue
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        returned = _returned_call(body)
        if returned is None:
            continue
        value, fallbacks = returned
        qualified = _library_name(value, modules, names)
        if qualified is not None:
            params = tuple(a.arg for a in [*args.posonlyargs, *args.args])
            name = qualified.split(".")[-1]
            found[node.name] = DirectCall(params, value, name, qualified, fallbacks)
    return found


def _returned_call(body: list[ast.stmt]) -> tuple[ast.Call, frozenset[str]] | None:
    """The call a function body does nothing but return, and the literals its handlers return
    instead: ``return f(x)``, or ``try: return f(x)`` whose every ``except`` returns a literal
    or raises (``except ValueError: return -1``, the first thing a model writes for a library
    that reports failure some other way); None for any other body."""
    if len(body) != 1:
        return None
    statement, fallbacks = body[0], set()
    if isinstance(statement, ast.Try):
        if statement.orelse or statement.finalbody or len(statement.body) != 1:
            return None
        for handler in statement.handlers:
            if len(handler.body) != 1:
                return None
            answer = handler.body[0]
            if isinstance(answer, ast.Return) and _literal(answer.value):
                fallbacks.add(ast.dump(answer.value or ast.Constant(None)))
            elif not isinstance(answer, ast.Raise):
                return None
        statement = statement.body[0]
    if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Call):
        return statement.value, frozenset(fallbacks)
    return None


class _Bind(ast.NodeTransformer):
    """Puts the test's arguments in place of the parameters."""

    def __init__(self, bound: dict[str, ast.expr]) -> None:
        self.bound = bound

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.bound.get(node.id, node)


def _readable(node: ast.AST) -> bool:
    """Whether ``node`` holds nothing but literals and builtins (``len``) over them."""
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and child.id not in _BUILTINS:
            return False
        if isinstance(child, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.Starred)):
            return False
    return True


def _parse(text: str) -> ast.expr | None:
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None


def _bind(
    given: ast.expr | None, functions: dict[str, DirectCall]
) -> tuple[DirectCall, str] | None:
    """For a call ``f(args)`` of a direct-call function: the function, and its library call
    with the arguments put in (None when there is none, or it would not read on its own)."""
    if not (
        isinstance(given, ast.Call)
        and isinstance(given.func, ast.Name)
        and given.func.id in functions
    ):
        return None
    direct = functions[given.func.id]
    if given.keywords or len(given.args) != len(direct.params):
        return None
    bound = dict(zip(direct.params, given.args, strict=True))
    call = _Bind(bound).visit(ast.parse(ast.unparse(direct.call), mode="eval").body)
    if not isinstance(call, ast.Call) or not all(
        _readable(a) for a in [*call.args, *(k.value for k in call.keywords)]
    ):
        return None
    return direct, ast.unparse(call)


def _bound_call(
    line: str, functions: dict[str, DirectCall], passed: bool
) -> tuple[DirectCall, str, str] | None:
    """From one output line about a direct-call function: the function, its library call with
    the test's arguments put in, and the value: a held ``assert f(args) == expected`` (when the
    run ``passed``), a failed one's ``got``, or pytest's ``where got = f(args)``."""
    if passed:
        held = _HELD.search(line)
        parsed = _parse(held.group("test")) if held and "FAILED" not in line else None
        if not (
            isinstance(parsed, ast.Compare)
            and len(parsed.ops) == 1
            and isinstance(parsed.ops[0], ast.Eq)
        ):
            return None
        found = _bind(parsed.left, functions)
        return (*found, ast.unparse(parsed.comparators[0])) if found else None
    if failed := _FAILED.search(line):
        parsed = _parse(failed.group("test"))
        left = parsed.left if isinstance(parsed, ast.Compare) else None
        found = _bind(left, functions)
        return (*found, failed.group("got").strip()) if found else None
    if where := _WHERE.search(line):
        found = _bind(_parse(where.group("test")), functions)
        return (*found, where.group("got").strip()) if found else None
    return None


def _literal(node: ast.expr | None) -> bool:
    """Whether ``node`` is a literal (``-1``, ``''``, ``None``; a bare ``return`` too)."""
    if node is None:
        return True
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return False
    return True


def _value_dump(value: str) -> str:
    """``value`` as :func:`ast.dump` gives a literal (``-1`` and ``-1`` alike), or itself."""
    parsed = _parse(value)
    return ast.dump(parsed) if parsed is not None else value


def returned_facts(code: str, output: str, *, passed: bool) -> list[Observed]:
    """The ``returned`` notes a test run's ``output`` gives about ``code``'s library calls:
    from each held assert when the run ``passed``; else from each failed assert's ``got``
    (``rsi.check_runner``'s report) or pytest's ``where got = f(args)``."""
    functions = direct_calls(code)
    if not functions:
        return []
    facts: dict[str, Observed] = {}
    per_function: dict[str, int] = {}
    for line in bounded_lines(output):
        found = _bound_call(line.strip(), functions, passed)
        if found is None:
            continue
        direct, call, value = found
        if per_function.get(direct.qualified, 0) >= PER_FUNCTION or call in facts:
            continue
        if direct.fallbacks and _value_dump(value) in direct.fallbacks:
            continue  # the handler's value as much as the call's
        per_function[direct.qualified] = per_function.get(direct.qualified, 0) + 1
        facts[call] = Observed(
            direct.name,
            direct.qualified,
            NoteKind.RETURNED,
            clip(call, _FACT_CHARS),
            clip(value, _FACT_CHARS),
        )
    return list(facts.values())


@dataclass(frozen=True)
class _Made:
    """A library call the code makes: its name, its shape, the library names nested in it."""

    name: str
    shape: str
    nested: frozenset[str]


def _calls_made(code: str) -> list[_Made] | None:
    """The library calls ``code`` makes; None when the code does not parse."""
    modules, names = outside_imports(code)
    if len(code) > _CODE_CHARS:
        return None
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return None

    def name_of(node: ast.AST) -> str | None:
        if not isinstance(node, ast.Call):
            return None
        qualified = _library_name(node, modules, names)
        return qualified.split(".")[-1] if qualified else None

    made = []
    for node in ast.walk(tree):
        name = name_of(node)
        if name is not None and isinstance(node, ast.Call):
            parts = [*node.args, *node.keywords]
            inner = {n for part in parts for c in ast.walk(part) if (n := name_of(c))}
            made.append(_Made(name, _shape(node), frozenset(inner)))
    return made


class _Hide(ast.NodeTransformer):
    def visit_Call(self, node: ast.Call) -> ast.expr:
        return ast.Name("_", ast.Load())


def _shape(call: ast.Call) -> str:
    """The call's text with every call nested in its arguments written ``_``."""
    copy = ast.parse(ast.unparse(call), mode="eval").body
    if not isinstance(copy, ast.Call):
        return ast.unparse(call)
    copy.args = [_Hide().visit(a) for a in copy.args]
    copy.keywords = [ast.keyword(k.arg, _Hide().visit(k.value)) for k in copy.keywords]
    return ast.unparse(copy)


def implicated(failed: str, fixed: str | None) -> set[str] | None:
    """The library names a failed test run of ``failed`` can be blamed on. With a later
    ``fixed`` code that passed: the names whose calls the fix dropped or changed (in arguments
    other than nested calls) and that have no library call nested in them (the innermost is
    blamed). With none: the one name ``failed`` calls, when it calls only one.
    None when the code cannot be read (no evidence either way)."""
    before = _calls_made(failed)
    if before is None:
        return None
    if fixed is None:
        names = {m.name for m in before}
        return names if len(names) == 1 else set()
    after = _calls_made(fixed)
    if after is None:
        return None
    kept = {(m.name, m.shape) for m in after}
    # A changed call with a library call nested in it may have changed only for what the
    # nested call returned (``round(sum(v) / n)`` fixed as ``round(total / count)``): no
    # evidence against it.
    return {m.name for m in before if (m.name, m.shape) not in kept and not m.nested - {m.name}}


def fix_line(name: str, error: str, failed: str, fixed: str) -> str:
    """The line of ``fixed`` (code that then passed) most likely to be the fix of ``name``'s
    ``error``: a new line calling a name the error speaks of, else one calling ``name``;
    "" when the fix added no such line."""

    def norm(line: str) -> str:
        return "".join(line.replace('"', "'").split())

    old = {norm(line) for line in failed.splitlines()}
    new = [ln.strip() for ln in fixed.splitlines() if ln.strip() and norm(ln) not in old]
    spoken = set(re.findall(r"[A-Za-z_]\w*", error))
    others = [ln for ln in new if spoken & (_called(ln) - {name})]
    same = [ln for ln in new if name in _called(ln)]
    return clip((others or same or [""])[0], _FACT_CHARS)


def _called(line: str) -> set[str]:
    return set(re.findall(r"([A-Za-z_]\w*)\s*\(", line))
