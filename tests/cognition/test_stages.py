"""The stages of ``cognition/`` import one way: each only earlier stages, never a later one.

Walks every import statement of the package with :mod:`ast` (nothing is
imported to do it): a stage (sense → frames → recall → context → deliberate
→ act → monitor → learn) may import earlier stages, the shared modules and
``graph/``; the shared modules import no stage; only the modules that run
the stages in order (the loop and its follow-ups, reconciliation, the chat
API) import them freely. No cycle between the package's parts.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

COGNITION = Path(__file__).resolve().parents[2] / "cognition"
STAGES = ("sense", "frames", "recall", "context", "deliberate", "act", "monitor", "learn")
SHARED = {"errors", "schemas", "text", "llm", "llm_format", "llm_pacing", "llm_reply", "llm_repair"}
SHARED |= {
    "lazy",
    "llm_state",
    "llm_health",
    "embeddings",
    "carried",
    "cases",
    "code_reply",
    "code_notes",
    "call_facts",
}
# decisions: what a team said and committed, kept and recalled beside the loop (like chat),
# taking its text in through sense's door.
RUNNERS = {"loop", "decision_draft", "worklist", "follow_up", "reconcile", "chat", "decisions"}
OUTSIDE = ("scheduler", "rsi", "bench", "tests")  # cognition sits below these


def _part(module: str) -> str | None:
    """``cognition.act.actor`` → ``act``; None for a module outside the package."""
    names = module.split(".")
    return names[1] if names[0] == "cognition" and len(names) > 1 else None


def _imports() -> Iterator[tuple[str, str, str]]:
    """(importing part, imported module, where) for every import in the package."""
    for path in sorted(COGNITION.rglob("*.py")):
        module = ".".join(path.relative_to(COGNITION.parent).with_suffix("").parts)
        part = _part(module)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module]
            else:
                continue
            for target in targets:
                yield part or "", target, f"{path.relative_to(COGNITION.parent)}:{node.lineno}"


def _against_the_order(part: str, target: str) -> bool:
    imported = _part(target)
    if imported is None or imported == part or part in RUNNERS:
        return False
    if part in SHARED:
        return imported not in SHARED
    if imported in RUNNERS:
        return True
    return imported in STAGES and STAGES.index(imported) > STAGES.index(part)


def test_every_part_is_a_stage_a_shared_module_or_a_runner() -> None:
    parts = {p.stem if p.is_file() else p.name for p in COGNITION.iterdir()}
    parts -= {"__init__", "__pycache__"}
    assert parts <= set(STAGES) | SHARED | RUNNERS, "classify the new part in this test"


def test_no_stage_imports_a_later_stage_or_a_runner() -> None:
    wrong = [
        f"{where}: {part} imports {target}"
        for part, target, where in _imports()
        if _against_the_order(part, target)
    ]
    assert not wrong, "\n".join(wrong)


def test_cognition_imports_nothing_above_it() -> None:
    wrong = [f"{where}: {t}" for _, t, where in _imports() if t.split(".")[0] in OUTSIDE]
    assert not wrong, "\n".join(wrong)


def test_no_cycle_between_the_parts() -> None:
    edges: dict[str, set[str]] = {}
    for part, target, _ in _imports():
        imported = _part(target)
        if imported is not None and imported != part:
            edges.setdefault(part, set()).add(imported)
    done: set[str] = set()

    def visit(part: str, path: tuple[str, ...]) -> None:
        if part in path:
            pytest.fail("import cycle: " + " → ".join((*path[path.index(part) :], part)))
        if part in done:
            return
        for imported in sorted(edges.get(part, ())):
            visit(imported, (*path, part))
        done.add(part)

    for part in sorted(edges):
        visit(part, ())


@pytest.mark.parametrize(
    ("part", "target", "wrong"),
    [
        ("act", "cognition.learn.learner", True),
        ("frames", "cognition.chat.turns", True),
        ("recall", "cognition.context.render", True),
        ("learn", "cognition.act.actor", False),
        ("text", "cognition.act.actor", True),
        ("loop", "cognition.learn.settle", False),
    ],
)
def test_the_check_itself(part: str, target: str, wrong: bool) -> None:
    assert _against_the_order(part, target) is wrong
