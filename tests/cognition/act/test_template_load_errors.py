"""Action templates: a bad templates file is refused, naming the template and the problem."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cognition.act.templates import TemplateError, TemplateRegistry, load_templates
from cognition.errors import CognitionError
from tests.support.action_templates import SHIPPED, shipped_data, write

# --- bad files --------------------------------------------------------------------------------


def load_error(tmp_path: Path, data: dict[str, Any]) -> str:
    path = write(tmp_path, data)
    with pytest.raises(TemplateError) as caught:
        load_templates(path)
    message = str(caught.value)
    assert str(path) in message
    return message


def test_template_error_is_a_value_error_and_a_cognition_error() -> None:
    assert issubclass(TemplateError, ValueError)
    assert issubclass(TemplateError, CognitionError)


def test_unknown_key(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["update_index"]["colour"] = "red"
    assert "template 'update_index': colour: unknown key" in load_error(tmp_path, data)


def test_unknown_nested_key(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["process_intake"]["trigger"]["paths"] = ["x/*"]
    assert "template 'process_intake': trigger.paths: unknown key" in load_error(tmp_path, data)


def test_unknown_condition(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["process_intake"]["conditions"]["file_size < 10MB"] = True
    message = load_error(tmp_path, data)
    assert "template 'process_intake': conditions.file_size < 10MB: unknown key" in message


def test_a_condition_string_is_not_code(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["handle_failure"]["conditions"] = ["error_count < 3"]
    message = load_error(tmp_path, data)
    assert "template 'handle_failure': conditions:" in message


def test_undeclared_placeholder(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["research_topic"]["prompt_template"] += "\nAlso {{ mood }}\n"
    message = load_error(tmp_path, data)
    assert "template 'research_topic': prompt_template: placeholder '{{ mood }}'" in message


@pytest.mark.parametrize("syntax", ["{{ path.name }}", "{{ path | upper }}", "{% if path %}x"])
def test_no_expressions_in_prompts(tmp_path: Path, syntax: str) -> None:
    data = shipped_data()
    data["templates"]["update_index"]["prompt_template"] += syntax
    message = load_error(tmp_path, data)
    assert "template 'update_index': prompt_template: only '{{ name }}' placeholders" in message


def test_bad_target(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["create_thinker"]["target"] = "shell"
    message = load_error(tmp_path, data)
    assert "template 'create_thinker': target: Input should be 'claude_code'" in message


def test_broken_yaml_names_the_template(tmp_path: Path) -> None:
    text = SHIPPED.read_text(encoding="utf-8").replace(
        "    agent: code-analyzer\n", "    agent: code-analyzer\n      oops: [\n", 1
    )
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TemplateError) as caught:
        load_templates(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: template 'update_index': not valid YAML:")
    assert "line " in message


def test_broken_yaml_before_any_template(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("templates: [\n", encoding="utf-8")
    with pytest.raises(TemplateError, match=r"t\.yaml: not valid YAML"):
        load_templates(path)


def test_duplicate_template_is_refused(tmp_path: Path) -> None:
    text = SHIPPED.read_text(encoding="utf-8")
    block = text[
        text.index("  handle_failure:") : text.index("  # ----", text.index("  handle_failure:"))
    ]
    path = tmp_path / "dup.yaml"
    path.write_text(text + "\n" + block, encoding="utf-8")
    with pytest.raises(
        TemplateError, match=r"template 'handle_failure': not valid YAML: duplicate"
    ):
        load_templates(path)


def test_duplicate_key_inside_a_template(tmp_path: Path) -> None:
    text = SHIPPED.read_text(encoding="utf-8").replace(
        "    max_retries: 2\n", "    max_retries: 2\n    max_retries: 5\n", 1
    )
    path = tmp_path / "dup.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TemplateError, match=r"'process_intake': not valid YAML: duplicate key"):
        load_templates(path)


def test_required_parameter_without_source(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["create_thinker"]["parameters"]["mood"] = {"required": True}
    message = load_error(tmp_path, data)
    assert "template 'create_thinker': parameters.mood: required, but has no source" in message


def test_unknown_source(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["create_thinker"]["parameters"]["era"]["source"] = "os.environ"
    message = load_error(tmp_path, data)
    assert "template 'create_thinker': parameters.era.source: unknown source" in message


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"default": "renamed"}, "parameters.change_type: default: 'renamed' is not one of"),
        ({"values": None}, "parameters.change_type: an enum parameter needs"),
        ({"max_length": 3}, "parameters.change_type: 'max_length' is only for"),
    ],
)
def test_bad_parameter(tmp_path: Path, change: dict[str, Any], key: str) -> None:
    data = shipped_data()
    data["templates"]["update_index"]["parameters"]["change_type"].update(change)
    assert f"template 'update_index': {key}" in load_error(tmp_path, data)


@pytest.mark.parametrize(
    ("template", "change", "key"),
    [
        ("handle_failure", {"function": None}, "function: an internal target needs"),
        ("update_index", {"function": "rescan"}, "function: an internal target needs"),
        ("update_index", {"topology": "mesh"}, "topology: only a claude_flow target"),
        ("update_index", {"trigger": {}}, "trigger: matches every observation"),
        ("update_index", {"name": "Update"}, "name: a template's name is its key"),
        ("update_index", {"version": 0}, "version: Input should be greater than or equal to 1"),
        ("research_topic", {"topology": "--rm -rf"}, "topology: String should match pattern"),
        ("process_intake", {"conditions": {"extensions": ["md"]}}, "conditions.extensions:"),
    ],
)
def test_bad_template(tmp_path: Path, template: str, change: dict[str, Any], key: str) -> None:
    data = shipped_data()
    data["templates"][template].update(change)
    data["templates"][template] = {
        k: v for k, v in data["templates"][template].items() if v is not None
    }
    assert f"template '{template}': {key}" in load_error(tmp_path, data)


def test_bad_glob_in_a_file(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["update_index"]["trigger"]["path_patterns"] = ["/abs/**"]
    message = load_error(tmp_path, data)
    assert "template 'update_index': trigger.path_patterns: glob '/abs/**' is absolute" in message


def test_bad_name(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["Bad-Name"] = data["templates"].pop("update_index")
    assert "template 'Bad-Name': name: String should match pattern" in load_error(tmp_path, data)


def test_every_problem_is_listed(tmp_path: Path) -> None:
    data = shipped_data()
    data["templates"]["update_index"]["colour"] = "red"
    data["templates"]["create_thinker"]["target"] = "shell"
    lines = load_error(tmp_path, data).splitlines()
    assert len(lines) == 2
    assert all(line.startswith(str(tmp_path)) for line in lines)


@pytest.mark.parametrize(
    "text", ["", "- a\n", "templates: {}\n", "templates: []\n", "templates: {}\nextra: 1\n"]
)
def test_bad_top_level(tmp_path: Path, text: str) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TemplateError, match=re.escape(str(path))):
        load_templates(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match="cannot read templates file"):
        load_templates(tmp_path / "absent.yaml")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_bytes(b"templates:\n  x: \xff\xfe\n")
    with pytest.raises(TemplateError, match="not UTF-8"):
        load_templates(path)


def test_templates_built_in_code_get_the_same_checks(registry: TemplateRegistry) -> None:
    template = registry.get("update_index")
    with pytest.raises(TemplateError, match="'update_index': defined twice"):
        TemplateRegistry([template, template], file="code")
    broken = template.model_copy(update={"prompt_template": "{{ mood }}"})
    with pytest.raises(TemplateError, match=r"code: template 'update_index': prompt_template"):
        TemplateRegistry([broken], file="code")


def test_a_yaml_tag_cannot_build_python_objects(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("templates: !!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(TemplateError, match="not valid YAML"):
        load_templates(path)
