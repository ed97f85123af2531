"""The shape of the product code: no import circles, no function over 60 lines, and more.

Also: the stores take and return typed rows and are built in one place, no
private name is reached from another package, and the size limits hold once
``fmt: skip`` is taken away.

A circle between two modules means one holds what the other needs; a function
of 60 lines or more is a room with two jobs. Both are found by reading the
sources with :mod:`ast`, so the test costs no imports. Imports count wherever
they stand (a lazy import inside a function still ties the two modules), and
``from package import name`` counts as an import of the package as well as of
``package.name`` when that is a module, as Python runs the package's
``__init__`` either way.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("graph", "cognition", "rsi", "scheduler")
MAX_FUNCTION_LINES = 60

# Empty: a function over the limit fails the test (no exceptions are kept).
KNOWN_LONG: set[str] = set()
KNOWN_CIRCLES: set[frozenset[str]] = set()


def _modules(base: Path = REPO) -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (base / package).rglob("*.py"):
            name = ".".join(path.relative_to(base).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    return modules


def _imported(node: ast.AST, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        module = ".".join([*parts, *([node.module] if node.module else [])])
    else:
        module = node.module or ""
    return [module, *(f"{module}.{alias.name}" for alias in node.names)]


def _import_graph(modules: dict[str, Path]) -> nx.DiGraph:
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for target in _imported(node, package):
                if target in modules and target != name:
                    graph.add_edge(name, target)
    return graph


def _long_functions(modules: dict[str, Path], base: Path = REPO) -> set[str]:
    found = set()
    for path in modules.values():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    found.add(f"{path.relative_to(base).as_posix()}:{node.name}")
    return found


def test_no_import_circles() -> None:
    graph = _import_graph(_modules())
    circles = {frozenset(c) for c in nx.strongly_connected_components(graph) if len(c) > 1}
    new = [sorted(c) for c in circles - KNOWN_CIRCLES]
    assert not new, f"modules that import each other, directly or round a ring: {new}"
    gone = [sorted(c) for c in KNOWN_CIRCLES - circles]
    assert not gone, f"no longer circles: take them out of KNOWN_CIRCLES: {gone}"


def test_no_function_over_60_lines() -> None:
    long = _long_functions(_modules())
    new = sorted(long - KNOWN_LONG)
    assert not new, f"functions over {MAX_FUNCTION_LINES} lines (split into named steps): {new}"
    gone = sorted(KNOWN_LONG - long)
    assert not gone, (
        f"no longer over {MAX_FUNCTION_LINES} lines: take them out of KNOWN_LONG: {gone}"
    )


def test_the_walk_finds_a_circle_and_a_long_function(tmp_path: Path) -> None:
    # The checks themselves: a planted two-module ring and a 61-line function are found.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def f():\n    from pkg.a import x\n")
    modules = {
        "pkg": package / "__init__.py",
        "pkg.a": package / "a.py",
        "pkg.b": package / "b.py",
    }
    graph = _import_graph(modules)
    assert {"pkg.a", "pkg.b"} in [set(c) for c in nx.strongly_connected_components(graph)]
    body = "".join(f"    x{i} = {i}\n" for i in range(60))
    (package / "b.py").write_text("def long():\n" + body)
    assert _long_functions(modules, base=tmp_path) == {"pkg/b.py:long"}


# Claude Code 2.1.328's hook events (its settings schema lists these): whichever Nous answers is
# named in scheduler/claude/events.py's table and nowhere else in the product code.
CLAUDE_CODE_EVENTS = frozenset(
    [
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Notification",
        "UserPromptSubmit",
        "UserPromptExpansion",
        "SessionStart",
        "SessionEnd",
        "Stop",
        "StopFailure",
        "SubagentStart",
        "SubagentStop",
        "PreCompact",
        "PostCompact",
        "PreModelSwitch",
        "PostModelSwitch",
        "PermissionRequest",
        "PermissionDenied",
        "Setup",
        "TeammateIdle",
        "TaskCreated",
        "TaskCompleted",
        "Elicitation",
        "ElicitationResult",
        "ConfigChange",
        "WorktreeCreate",
        "WorktreeRemove",
        "InstructionsLoaded",
        "CwdChanged",
        "FileChanged",
        "DirectoryAdded",
        "MessageDisplay",
    ]
)
HOOK_EVENT_TABLE = "scheduler/claude/events.py"


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            for statement in node.body:
                # A docstring, or an attribute's docstring (a string standing alone).
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    found.add(id(statement.value))
    return found


def _event_names_spelled(modules: dict[str, Path], base: Path = REPO) -> set[str]:
    """Where a hook event's name is a string in code (docs and comments may name it)."""
    found = set()
    for path in modules.values():
        tree = ast.parse(path.read_text(), str(path))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in CLAUDE_CODE_EVENTS
                and id(node) not in docs
            ):
                found.add(f"{path.relative_to(base).as_posix()}:{node.lineno}:{node.value}")
    return found


def test_hook_events_are_named_in_the_table_alone() -> None:
    spelled = _event_names_spelled(_modules())
    elsewhere = sorted(s for s in spelled if not s.startswith(HOOK_EVENT_TABLE + ":"))
    assert not elsewhere, (
        f"a hook event's name spelled outside {HOOK_EVENT_TABLE} (read its HookEvent instead: "
        f"answer, lean, vectors, matcher, denies, first): {elsewhere}"
    )
    assert spelled, "the table names no event: the walk is broken"


def test_the_walk_finds_an_event_name_but_not_in_a_docstring(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(
        '"""Answers ``Stop``."""\n'
        "def f(event):\n"
        '    """Stop"""\n'
        '    return event == "Stop" or event in ("PostCompact",)\n'
    )
    assert _event_names_spelled({"m": path}, base=tmp_path) == {"m.py:4:Stop", "m.py:4:PostCompact"}


# --- what the stores hand out, private names, sizes without `fmt: skip` ----------------------

STORE_DIR = "graph/store"
UNTYPED = re.compile(r"\bAny\b|\bRow\b")
"""An annotation that says nothing of a row: ``dict[str, Any]``, ``Any``, the driver's ``Row``."""
MAX_MODULE_LINES = 400
_SKIP = re.compile(r"[ \t]*#\s*fmt:\s*skip\b[^\n]*|^[ \t]*#\s*fmt:\s*(off|on)\b[^\n]*$", re.M)


def _untyped_store_methods(base: Path = REPO) -> set[str]:
    """Public methods of the stores (``*Store``, ``Memory``) whose annotations say ``Any``."""
    found = set()
    for path in sorted((base / STORE_DIR).rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef) or not cls.name.endswith(("Store", "Memory")):
                continue
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                if fn.name.startswith("_"):
                    continue
                args = [*fn.args.args, *fn.args.kwonlyargs, fn.args.vararg, fn.args.kwarg]
                annotations = [fn.returns, *(a.annotation for a in args if a is not None)]
                # ``**changes: object`` is a dict of properties by another name: ``Unpack`` a
                # TypedDict instead, so each keyword is checked where it is passed.
                bag = fn.args.kwarg is not None and not _unpacked(fn.args.kwarg.annotation)
                if bag or any(
                    a is not None and UNTYPED.search(ast.unparse(a)) for a in annotations
                ):
                    found.add(f"{path.relative_to(base).as_posix()}:{cls.name}.{fn.name}")
    return found


def _untyped_store_functions(modules: dict[str, Path], base: Path = REPO) -> set[str]:
    """Public functions of ``graph/store`` that code outside it imports and whose
    annotations say ``Any`` (a helper that hands rows out is a store's method by another name)."""
    untyped: dict[str, str] = {}
    for path in sorted((base / STORE_DIR).rglob("*.py")):
        module = ".".join(path.relative_to(base).with_suffix("").parts).removesuffix(".__init__")
        for fn in ast.parse(path.read_text(), str(path)).body:
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and _says_any(fn):
                untyped[f"{module}.{fn.name}"] = f"{path.relative_to(base).as_posix()}:{fn.name}"
    found = set()
    for path in modules.values():
        if path.relative_to(base).as_posix().startswith(STORE_DIR + "/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found |= {
                    untyped[n] for a in node.names if (n := f"{node.module}.{a.name}") in untyped
                }
    return found


def _says_any(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    if fn.name.startswith("_"):
        return False
    args = [*fn.args.args, *fn.args.kwonlyargs, fn.args.vararg, fn.args.kwarg]
    annotations = [fn.returns, *(a.annotation for a in args if a is not None)]
    return any(a is not None and UNTYPED.search(ast.unparse(a)) for a in annotations)


def _unpacked(annotation: ast.expr | None) -> bool:
    return annotation is not None and ast.unparse(annotation).startswith("Unpack[")


def test_store_methods_take_and_return_typed_rows() -> None:
    untyped = sorted(_untyped_store_methods() | _untyped_store_functions(_modules()))
    assert not untyped, (
        "store methods (and graph/store functions used outside it) that take or return "
        f"untyped rows (return a frozen dataclass of graph/store/rows/, take typed arguments): "
        f"{untyped}"
    )


# Where a store is built: Memory and LeanMemory build the graph's (once each, on first use);
# cognition/act/trust.py the one file store, from the settings (its trust_store()).
STORE_BUILDERS = frozenset(
    ["graph/store/memory.py", "graph/store/lean_memory.py", "cognition/act/trust.py"]
)
PRODUCT = (*PACKAGES, "bench")


def _stores_built(base: Path = REPO, packages: tuple[str, ...] = PRODUCT) -> set[str]:
    """Where product code calls ``SomethingStore(...)`` outside :data:`STORE_BUILDERS`."""
    found = set()
    for package in packages:
        for path in sorted((base / package).rglob("*.py")):
            where = path.relative_to(base).as_posix()
            if where in STORE_BUILDERS:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if re.fullmatch(r"[A-Z]\w*Store", name):
                    found.add(f"{where}:{node.lineno}:{name}")
    return found


def test_stores_are_built_in_one_place() -> None:
    built = sorted(_stores_built())
    assert not built, (
        f"a store built outside {sorted(STORE_BUILDERS)} (use memory.<store>, "
        f"memory.team_decisions(project) or trust_store(settings, root)): {built}"
    )


def _package_of(path: Path, base: Path) -> str:
    return path.parent.relative_to(base).as_posix()


def _private_names(modules: dict[str, Path], base: Path) -> dict[str, set[str]]:
    """Per package (folder), the names its modules define: functions, classes, variables and
    attributes set on ``self`` or ``cls`` (an attribute set on another object is reached)."""
    defined: dict[str, set[str]] = {}
    for path in modules.values():
        names = defined.setdefault(_package_of(path, base), set())
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return defined


def _private_reached(modules: dict[str, Path], base: Path = REPO) -> set[str]:
    """``obj._name`` (or ``from m import _name``) whose ``_name`` another package of ours
    defines and no module of its own package does.

    ``self._x`` and ``cls._x`` are the object's own; a dunder is Python's; the private
    names of the standard library and other projects (``os._exit``) are theirs to keep.
    """
    defined = _private_names(modules, base)
    ours = set().union(*defined.values())
    found = set()
    for path in modules.values():
        own = defined[_package_of(path, base)]
        where = path.relative_to(base).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[tuple[str, int]] = []
            if isinstance(node, ast.Attribute) and not (
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            ):
                names = [(node.attr, node.lineno)]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [(a.name, node.lineno) for a in node.names]
            for name, line in names:
                private = name.startswith("_") and not name.startswith("__")
                if private and name in ours and name not in own:
                    found.add(f"{where}:{line}:{name}")
    return found


def test_no_private_name_is_reached_from_another_package() -> None:
    reached = sorted(_private_reached(_modules()))
    assert not reached, (
        "a private name of another package reached (give it a public name, or pass what "
        f"is needed as an argument): {reached}"
    )


def _as_formatted(tmp: Path) -> dict[str, Path]:
    """The product code without ``fmt: skip`` / ``fmt: off`` help, formatted as ruff would."""
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            copy = tmp / path.relative_to(REPO)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(_SKIP.sub("", path.read_text()))
    ruff = Path(sys.executable).with_name("ruff")
    config = ["--config", str(REPO / "pyproject.toml")]
    subprocess.run([str(ruff), "format", "-q", *config, str(tmp)], check=True, timeout=120)
    return _modules(tmp)


def _long_modules(modules: dict[str, Path], base: Path = REPO) -> set[str]:
    return {
        path.relative_to(base).as_posix()
        for path in modules.values()
        if len(path.read_text().splitlines()) > MAX_MODULE_LINES
    }


def test_sizes_hold_without_fmt_skip(tmp_path: Path) -> None:
    # Lines kept together under `fmt: skip` (signatures, calls) count as ruff would lay them
    # out: a marker can keep a table readable, never a module or a function under its limit.
    formatted = _as_formatted(tmp_path)
    long = sorted(_long_functions(formatted, base=tmp_path))
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines once formatted: {long}"
    big = sorted(_long_modules(formatted, base=tmp_path))
    assert not big, f"modules over {MAX_MODULE_LINES} lines once formatted (split them): {big}"


def test_the_walks_find_untyped_rows_private_names_and_squeezed_sizes(tmp_path: Path) -> None:
    store = tmp_path / STORE_DIR
    store.mkdir(parents=True)
    (store / "a.py").write_text(
        "class AStore:\n"
        "    async def rows(self) -> list[dict[str, Any]]: ...\n"
        "    async def put(self, x: Mapping[str, Any]) -> None: ...\n"
        "    async def _own(self) -> Any: ...\n"
        "    async def fine(self) -> list[Hit]: ...\n"
        "    async def move(self, d: str, **changes: object) -> None: ...\n"
        "    async def settle(self, d: str, **changes: Unpack[Changes]) -> None: ...\n"
    )
    assert _untyped_store_methods(tmp_path) == {
        f"{STORE_DIR}/a.py:AStore.rows",
        f"{STORE_DIR}/a.py:AStore.put",
        f"{STORE_DIR}/a.py:AStore.move",
    }
    (store / "b.py").write_text(
        "def rows(t: Turn) -> list[dict[str, Any]]: ...\n"
        "def inside(t: Turn) -> Any: ...\n"
        "def typed(t: Turn) -> list[Hit]: ...\n"
    )
    (store / "c.py").write_text("from graph.store.b import inside\n")
    (tmp_path / "user.py").write_text("from graph.store.b import rows, typed\n")
    modules = {"graph.store.c": store / "c.py", "user": tmp_path / "user.py"}
    assert _untyped_store_functions(modules, base=tmp_path) == {f"{STORE_DIR}/b.py:rows"}
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(
        "class TrustStore: ...\nx = TrustStore(1)\ny = store.TeamDecisionStore(m, 'p')\n"
    )
    assert _stores_built(tmp_path, ("pkg",)) == {
        "pkg/m.py:2:TrustStore",
        "pkg/m.py:3:TeamDecisionStore",
    }
    (tmp_path / "p").mkdir()
    (tmp_path / "q").mkdir()
    (tmp_path / "p" / "m.py").write_text("class H:\n    def __init__(self):\n        self._t = 0\n")
    (tmp_path / "q" / "n.py").write_text(
        "from p.m import _t\n\ndef f(h, self):\n    h._t = 1\n    return self._u, h.__dict__\n"
    )
    modules = {"p.m": tmp_path / "p" / "m.py", "q.n": tmp_path / "q" / "n.py"}
    assert _private_reached(modules, base=tmp_path) == {"q/n.py:1:_t", "q/n.py:4:_t"}
    squeezed = "def f(\n    a, b,\n    c,\n) -> None:  # fmt: skip\n    pass\n"
    assert _SKIP.sub("", squeezed) == "def f(\n    a, b,\n    c,\n) -> None:\n    pass\n"
