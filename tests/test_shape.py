"""The shape of the product code: no import circles, no function over 60 lines.

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
from pathlib import Path

import networkx as nx

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("graph", "cognition", "rsi", "scheduler")
MAX_FUNCTION_LINES = 60

# Empty: a function over the limit fails the test (no exceptions are kept).
KNOWN_LONG: set[str] = set()
KNOWN_CIRCLES: set[frozenset[str]] = set()


def _modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
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
