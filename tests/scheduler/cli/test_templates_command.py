"""``nous templates``: init, list, check and explain, run as a person runs them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scheduler.cli import main
from tests.support.packs import make_tree

REPO = Path(__file__).resolve().parents[3]
EMPTY = REPO / "tests" / "support" / "empty.yaml"
SHIPPED = REPO / "cognition" / "act" / "templates.yaml"
MINIMAL = """\
templates:
  greet:
    version: 1
    title: Greet
    trigger:
      observation_types: [file_created]
      path_patterns: ["inbox/**"]
    conditions:
      extensions: [".md"]
    target: claude_code
    prompt_template: |
      Say hello to {{ path }}.
"""


def nous(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv[:2], "--config", str(EMPTY), *argv[2:]])
    out, err = capsys.readouterr()
    return code, out, err


def written(tmp_path: Path, text: str, name: str = "templates.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_check_passes_a_good_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = nous(capsys, "templates", "check", str(written(tmp_path, MINIMAL)))
    assert code == 0 and "1 templates, all valid (greet)" in out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # bad YAML: the line and column, never a snippet
        (MINIMAL.replace("    title: Greet", "    title: [Greet"), r"not valid YAML: .*line \d+"),
        # an unknown condition, with the template, key and line
        (
            MINIMAL.replace('extensions: [".md"]', "is_important: true"),
            r"template 'greet': conditions\.is_important: unknown key \(line 9\)",
        ),
        # a placeholder nothing fills: a missing parameter
        (
            MINIMAL.replace("{{ path }}", "{{ person }}"),
            r"template 'greet': prompt_template: placeholder '\{\{ person \}\}' is not a"
            r" declared parameter.*\(line 11\)",
        ),
        # a required parameter with no source
        (
            MINIMAL + "    parameters:\n      person:\n        required: true\n",
            r"template 'greet': parameters\.person: required, but has no source.*\(line 14\)",
        ),
        # a glob that cannot be one, in the new condition
        (
            MINIMAL.replace('extensions: [".md"]', 'not_path_patterns: ["../x/**"]'),
            r"template 'greet': conditions\.not_path_patterns: glob '\.\./x/\*\*' .*\(line 9\)",
        ),
        # a command target without its command
        (
            MINIMAL.replace("target: claude_code", "target: command"),
            r"template 'greet': command: a command target needs a 'command'",
        ),
    ],
    ids=[
        "bad-yaml",
        "unknown-condition",
        "missing-parameter",
        "no-source",
        "bad-glob",
        "no-command",
    ],
)
def test_check_names_file_key_and_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    path = written(tmp_path, text)
    code, out, err = nous(capsys, "templates", "check", str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"nous: {path}")
    assert re.search(expected, err), err


def test_check_refuses_a_yaml_bomb_and_a_huge_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        laughs.append(f"{level}: &{level} [*{previous},*{previous},*{previous},*{previous}]")
    bomb = written(tmp_path, "templates:\n  x:\n    " + "\n    ".join(laughs) + "\n", "bomb.yaml")
    code, _, err = nous(capsys, "templates", "check", str(bomb))
    assert code == 2 and str(bomb) in err and "alias" in err.lower()

    huge = written(tmp_path, MINIMAL + "#" * 2_000_000 + "\n", "huge.yaml")
    code, _, err = nous(capsys, "templates", "check", str(huge))
    assert code == 2 and str(huge) in err

    code, _, err = nous(capsys, "templates", "check", str(tmp_path / "missing.yaml"))
    assert code == 2 and "missing.yaml" in err


def test_init_list_explain_on_a_code_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'tiny'\n",
            "tiny/core.py": "x = 1\n",
            "tests/test_core.py": "def test_x():\n    pass\n",
            "CHANGES.md": "# Changes\n",
        },
    )
    code, out, _ = nous(capsys, "templates", "init", "--root", str(root))
    assert code == 0
    assert f"wrote {root}/.nous/templates.yaml from the code_repository pack" in out
    assert "a Python repository (pyproject.toml); tests: python3 -m pytest -q" in out
    assert "off until you set enabled: true: build_docs, fix_failing_tests" in out

    code, _, err = nous(capsys, "templates", "init", "--root", str(root))
    assert code == 2 and "exists; --force" in err

    code, out, _ = nous(capsys, "templates", "list", "--root", str(root))
    assert code == 0 and out.startswith(f"from {root}/.nous/templates.yaml (the watched folder's")
    assert "run_changed_tests" in out and "fix_failing_tests           no" in out

    code, out, _ = nous(capsys, "templates", "explain", "--root", str(root), "tests/test_core.py")
    assert code == 0
    assert "file_modified tests/test_core.py (category test): run_changed_tests would handle" in out
    assert "run_tests_for_changed_code: wants category code, the change is test" in out
    assert "fix_failing_tests: turned off (enabled: false)" in out

    code, out, _ = nous(capsys, "templates", "explain", "--root", str(root), "--json", "CHANGES.md")
    data = json.loads(out)
    assert data["handled_by"] is None and all(not row["handles"] for row in data["templates"])

    code, _, err = nous(capsys, "templates", "explain", "--root", str(root), "../outside.md")
    assert code == 2 and "../outside.md" in err
    code, _, err = nous(capsys, "templates", "explain", "--root", str(root), "a\x1b[2Jb.md")
    assert code == 2 and "control character" in err


def test_list_without_a_file_of_the_folder_is_the_shipped_pack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = nous(capsys, "templates", "list", "--root", str(tmp_path))
    assert code == 0 and f"from {SHIPPED} (shipped with Nous" in out
    assert "process_intake" in out


def test_init_says_when_no_pack_fits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = nous(capsys, "templates", "init", "--root", str(tmp_path))
    assert code == 1 and "no starter pack fits" in err and "--pack" in err
    assert not (tmp_path / ".nous").exists()
