"""Starter packs on small folders of their kind: detected, planned through the real planner.

For each pack: the folder is detected as its kind, ``nous templates init``'s
file is written and found by the daemon's loader without a setting, a change
that should act is planned (rules reasoner, real planner, censors in Neo4j)
with the right template and parameters, and one that should not act is
matched by no template.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cognition.act.locate import USER_TEMPLATES
from cognition.act.starter import StarterError, choose_pack, render_pack, write_templates
from cognition.act.templates import TemplateRegistry
from cognition.sense.classify import ObservationClassifier
from graph.models import ActionTarget, DecisionType, Observation
from graph.models import ObservationType as T
from graph.settings import SenseSettings, load_settings
from graph.store.memory import Memory
from scheduler.compose.loop import load_action_templates
from tests.support.packs import change, make_tree, planned

CLASSIFIER = ObservationClassifier(SenseSettings())
EMPTY = Path(__file__).resolve().parents[2] / "support" / "empty.yaml"

PYTHON_REPO = {
    "pyproject.toml": "[project]\nname = 'tiny'\n",
    "tiny/__init__.py": "",
    "tiny/core.py": "def add(a, b):\n    return a + b\n",
    "tests/test_core.py": "from tiny.core import add\n\ndef test_add():\n    assert add(1, 2)\n",
    "tests/conftest.py": "",
    "docs/conf.py": "project = 'tiny'\n",
    "docs/index.rst": "Tiny\n====\n",
    "docs/changelog.rst": "Changelog\n=========\n",
    "README.md": "# tiny\n",
    ".github/workflows/ci.yml": "on: push\n",
}
VAULT = {
    ".obsidian/app.json": "{}",
    "Inbox/idea.md": "an idea about [[Gardening]]\n",
    "notes/Gardening.md": "# Gardening\nSee [[Soil]].\n",
    "notes/Soil.md": "# Soil\n",
    "Index.md": "- [[Gardening]]\n- [[Soil]]\n",
}
SEED_BASE = {
    "_intake/welcome.md": "# Welcome\nA first note.\n",
    "knowledge/graphs.md": "# Graphs\n",
    "indices/themes.yaml": "themes: []\n",
    "README.md": "# my knowledge\n",
}


def installed(root: Path, pack: str) -> TemplateRegistry:
    """Detect ``root``'s pack (it must be ``pack``), write it, load it as the daemon does."""
    choice = choose_pack(root)
    assert choice.pack == pack, choice.reason
    write_templates(root / USER_TEMPLATES, render_pack(choice), force=False)
    settings = load_settings(EMPTY, environ={}, overrides={"watch.root": str(root)})
    registry = load_action_templates(settings)
    assert registry.file == str(root / USER_TEMPLATES)
    return registry


# ---------------------------------------------------------------- code repository


async def test_code_repository_runs_the_changed_test_with_the_project_command(
    tmp_path: Path, memory: Memory
) -> None:
    root = make_tree(tmp_path, PYTHON_REPO)
    choice = choose_pack(root)
    assert "Python repository (pyproject.toml)" in choice.reason
    assert "Sphinx" in choice.reason
    templates = installed(root, "code_repository")

    test_change = change(memory, T.FILE_MODIFIED, "tests/test_core.py")
    action, deliberation, names = await planned(memory, root, templates, test_change)
    assert deliberation.decision_type is DecisionType.ACT
    assert action is not None and action.template == "run_changed_tests"
    assert action.target is ActionTarget.COMMAND
    assert action.params["argv"] == ["python3", "-m", "pytest", "-q", "tests/test_core.py"]
    assert action.params["path"] == "tests/test_core.py"
    assert names == ["run_changed_tests"]


async def test_code_repository_runs_the_suite_for_code_and_builds_changed_docs(
    tmp_path: Path, memory: Memory
) -> None:
    root = make_tree(tmp_path, PYTHON_REPO)
    templates = installed(root, "code_repository")

    code = change(memory, T.FILE_MODIFIED, "tiny/core.py")
    action, _, _ = await planned(memory, root, templates, code)
    assert action is not None and action.template == "run_tests_for_changed_code"
    assert action.params["argv"] == ["python3", "-m", "pytest", "-q"]
    assert action.params["change_type"] == "modified"

    page = change(memory, T.FILE_MODIFIED, "docs/index.rst")
    action, _, _ = await planned(memory, root, templates, page)
    assert action is not None and action.template == "build_docs"
    argv = ["python3", "-m", "sphinx", "-b", "html", "-q", "docs", ".nous/docs-build"]
    assert action.params["argv"] == argv

    deps = change(memory, T.FILE_MODIFIED, "pyproject.toml")
    action, _, _ = await planned(memory, root, templates, deps)
    assert action is not None and action.template == "check_dependencies"
    assert action.params["argv"] == ["python3", "-m", "pip", "check"]


@pytest.mark.parametrize(
    "path",
    [
        "docs/changelog.rst",
        "README.md",
        ".github/workflows/ci.yml",
        "tests/conftest.py",
        "docs/_build/html/index.html",
    ],
)
async def test_code_repository_does_not_act_on_a_changelog_readme_or_ci_file(
    tmp_path: Path, memory: Memory, path: str
) -> None:
    root = make_tree(tmp_path, PYTHON_REPO | {"docs/_build/html/index.html": "<html/>"})
    templates = installed(root, "code_repository")
    action, deliberation, names = await planned(
        memory, root, templates, change(memory, T.FILE_MODIFIED, path)
    )
    assert names == []
    assert action is None and deliberation.decision_type is not DecisionType.ACT


async def test_fixing_failed_tests_is_off_until_the_user_turns_it_on(
    tmp_path: Path, memory: Memory
) -> None:
    root = make_tree(tmp_path, PYTHON_REPO)
    templates = installed(root, "code_repository")
    metadata = {
        "template": "run_changed_tests",
        "error": "FAILED tests/test_core.py::test_add - assert 4 == 3",
        "path": "tests/test_core.py",
        "error_count": 1,
    }
    failed = CLASSIFIER.classify(
        Observation(agent_id=memory.agent_id, type=T.TASK_FAILED, metadata=metadata)
    )
    assert not templates.get("fix_failing_tests").enabled
    assert (await planned(memory, root, templates, failed))[2] == []

    own = root / USER_TEMPLATES
    text = own.read_text().replace("    enabled: false\n", "    enabled: true\n", 1)
    own.write_text(text)
    settings = load_settings(EMPTY, environ={}, overrides={"watch.root": str(root)})
    turned_on = load_action_templates(settings)
    _, deliberation, names = await planned(memory, root, turned_on, failed)
    assert names == ["fix_failing_tests"]
    assert deliberation.template == "fix_failing_tests"  # matched; a critical failure: investigate
    action, _, _ = await planned(memory, root, turned_on, failed, acting=True)
    assert action is not None and action.target is ActionTarget.CLAUDE_CODE
    assert "assert 4 == 3" in action.prompt and "tests/test_core.py" in action.prompt


@pytest.mark.parametrize(
    ("marker", "language", "argv"),
    [
        ("package.json", "JavaScript", ["npm", "test", "--silent"]),
        ("go.mod", "Go", ["go", "test", "./..."]),
        ("Cargo.toml", "Rust", ["cargo", "test", "--quiet"]),
    ],
)
def test_other_languages_get_their_own_test_command(
    tmp_path: Path, marker: str, language: str, argv: list[str]
) -> None:
    root = make_tree(tmp_path, {marker: "{}\n", "README.md": "x\n"})
    assert f"a {language} repository ({marker})" in choose_pack(root).reason
    templates = installed(root, "code_repository")
    assert templates.get("run_tests_for_changed_code").command == argv
    assert not templates.get("build_docs").enabled  # no docs builder found


# ---------------------------------------------------------------- notes vault


async def test_notes_vault_triages_the_inbox_and_keeps_index_and_links(
    tmp_path: Path, memory: Memory
) -> None:
    root = make_tree(tmp_path, VAULT)
    choice = choose_pack(root)
    assert "Obsidian vault (.obsidian/)" in choice.reason and "index note Index.md" in choice.reason
    templates = installed(root, "notes_vault")

    arrived = change(memory, T.FILE_CREATED, "Inbox/idea.md")
    action, _, names = await planned(memory, root, templates, arrived)
    assert action is not None and action.template == "triage_inbox"
    assert action.params["path"] == "Inbox/idea.md"
    assert "an idea about [[Gardening]]" in action.prompt  # the content preview, fenced
    assert names == ["triage_inbox", "update_notes_index"]

    make_tree(root, {"notes/Compost.md": "# Compost\n"})
    action, _, _ = await planned(
        memory, root, templates, change(memory, T.FILE_CREATED, "notes/Compost.md")
    )
    assert action is not None and action.template == "update_notes_index"
    assert "Index.md" in action.prompt

    (root / "notes/Soil.md").unlink()
    gone = change(memory, T.FILE_DELETED, "notes/Soil.md")
    action, _, _ = await planned(memory, root, templates, gone)
    assert action is not None and action.template == "repair_links_to_missing_note"
    assert action.params["change_type"] == "deleted"


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        (T.FILE_MODIFIED, ".obsidian/app.json"),
        (T.FILE_MODIFIED, "Index.md"),
        (T.FILE_MODIFIED, "notes/Soil.md"),
        (T.FILE_CREATED, "Templates/Daily.md"),
    ],
)
async def test_notes_vault_does_not_act_on_its_settings_or_the_index_itself(
    tmp_path: Path, memory: Memory, kind: T, path: str
) -> None:
    root = make_tree(tmp_path, VAULT | {"Templates/Daily.md": "# {{date}}\n"})
    templates = installed(root, "notes_vault")
    action, _, names = await planned(memory, root, templates, change(memory, kind, path))
    assert (action, names) == (None, [])


def test_a_folder_of_plain_notes_is_a_vault_with_an_inbox_to_come(tmp_path: Path) -> None:
    root = make_tree(tmp_path, {f"n{i}.md": "x\n" for i in range(4)} | {"a.png": ""})
    choice = choose_pack(root)
    assert choice.pack == "notes_vault"
    assert "inbox Inbox/ (not there yet)" in choice.reason


# ---------------------------------------------------------------- seed knowledge base


async def test_seed_knowledge_base_processes_intake_as_before(
    tmp_path: Path, memory: Memory
) -> None:
    root = make_tree(tmp_path, SEED_BASE)
    assert choose_pack(root).reason == "laid out as seed 000's: _intake/, indices/, knowledge/"
    templates = installed(root, "knowledge_base")
    assert templates.names()[0] == "process_intake" and len(templates) == 6

    arrived = change(memory, T.FILE_CREATED, "_intake/welcome.md")
    action, _, _ = await planned(memory, root, templates, arrived)
    assert action is not None and action.template == "process_intake"
    assert action.params["path"] == "_intake/welcome.md"

    action, _, names = await planned(
        memory, root, templates, change(memory, T.FILE_MODIFIED, "README.md")
    )
    assert (action, names) == (None, [])


def test_the_demo_folder_is_a_seed_knowledge_base() -> None:
    demo = Path(__file__).resolve().parents[3] / "demo"
    assert choose_pack(demo).pack == "knowledge_base"


# ---------------------------------------------------------------- choosing and writing


def test_nothing_fits_an_empty_folder_unless_a_pack_is_named(tmp_path: Path) -> None:
    with pytest.raises(StarterError, match=r"no starter pack fits.*--pack"):
        choose_pack(tmp_path)
    assert choose_pack(tmp_path, "notes_vault").pack == "notes_vault"
    with pytest.raises(StarterError, match="no starter pack 'recipes'"):
        choose_pack(tmp_path, "recipes")


def test_an_odd_inbox_name_never_reaches_a_glob_or_a_prompt(tmp_path: Path) -> None:
    root = make_tree(tmp_path, {"inbox[*]/": "", "a.md": "", "b.md": "", "c.md": ""})
    choice = choose_pack(root)
    assert choice.values["inbox"] == "Inbox/"


def test_writing_never_loses_the_users_file(tmp_path: Path) -> None:
    target = tmp_path / USER_TEMPLATES
    write_templates(target, "first", force=False)
    with pytest.raises(StarterError, match="exists; --force"):
        write_templates(target, "second", force=False)
    assert target.read_text() == "first"
    backup = write_templates(target, "second", force=True)
    assert backup is not None and backup.read_text() == "first"
    assert target.read_text() == "second"

    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / ".nous").write_text("a file where the folder would be")
    with pytest.raises(StarterError, match="cannot write it"):
        write_templates(blocked / USER_TEMPLATES, "x", force=False)


def test_the_setting_still_wins_over_the_folders_file(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "root", PYTHON_REPO)
    installed(root, "code_repository")
    shipped = Path(__file__).resolve().parents[3] / "cognition" / "act" / "templates.yaml"
    overrides = {"watch.root": str(root), "templates_file": str(shipped)}
    settings = load_settings(EMPTY, environ={}, overrides=overrides)
    assert load_action_templates(settings).names()[0] == "process_intake"
    assert sys.executable  # the loader read no other file: nothing else to check


def test_the_survey_follows_no_symlink_and_stops(tmp_path: Path) -> None:
    root = make_tree(tmp_path, {f"n{i}.md": "x\n" for i in range(3)})
    (root / "loop").symlink_to(root, target_is_directory=True)
    make_tree(root, {f"deep/{'d/' * 20}x.txt": "x\n"})
    assert choose_pack(root).pack == "notes_vault"
