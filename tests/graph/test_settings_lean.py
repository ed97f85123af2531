"""A hook's lean settings reader against the daemon's pydantic models: the same keys, defaults,
bounds and values, and errors that name the key and where it was set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, SecretStr

from graph.errors import SettingsError
from graph.settings import Settings, load_settings
from graph.settings_lean import (
    SPECS,
    HookCases,
    HookClaude,
    HookCodeNotes,
    HookEmbeddings,
    HookNeo4j,
    Section,
    Spec,
    load_hook_settings,
)

KINDS: dict[object, str] = {
    int: "int",
    float: "float",
    bool: "bool",
    str: "str",
    SecretStr: "secret",
    str | None: "str",
    SecretStr | None: "secret",
}
CLASSES: tuple[type[Section], ...] = (
    HookNeo4j,
    HookClaude,
    HookCases,
    HookCodeNotes,
    HookEmbeddings,
)
WHOLE = ("claude", "cases", "code_notes")
"""Sections the hook reads every key of (the lean section must not miss a key the model has)."""


def model_of(section: str) -> type[BaseModel]:
    if not section:
        return Settings
    annotation = Settings.model_fields[section].annotation
    assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
    return annotation


def model_spec(model: type[BaseModel], name: str) -> tuple[str, Any, bool, dict[str, Any]]:
    """What pydantic's model says of a key, in the lean spec's terms."""
    field = model.model_fields[name]
    bounds: dict[str, Any] = {}
    for meta in field.metadata:
        for attribute in ("gt", "ge", "lt", "le", "min_length", "max_length", "pattern"):
            value = getattr(meta, attribute, None)
            if value is not None:
                bounds[attribute] = value
    default = field.default
    if isinstance(default, SecretStr):
        default = default.get_secret_value()
    nullable = field.annotation in (str | None, SecretStr | None)
    return KINDS[field.annotation], default, nullable, bounds


def lean_spec(spec: Spec) -> tuple[str, Any, bool, dict[str, Any]]:
    return spec.kind, spec.default, spec.nullable, spec.bounds


@pytest.mark.parametrize(("section", "name"), [(s, n) for s, specs in SPECS.items() for n in specs])
def test_each_key_has_the_models_type_default_and_bounds(section: str, name: str) -> None:
    # A default or a bound changed in graph/settings*.py only (or here only) fails this.
    assert lean_spec(SPECS[section][name]) == model_spec(model_of(section), name)


def test_the_sections_a_hook_reads_whole_miss_no_key_of_the_models() -> None:
    for section in WHOLE:
        assert set(SPECS[section]) == set(model_of(section).model_fields), section


def test_each_lean_section_declares_exactly_its_keys() -> None:
    # What the consumers read (typed by these annotations) is what is checked and filled.
    for cls in CLASSES:
        declared = {n for n in cls.__annotations__ if n != "NAME"}
        assert declared == set(SPECS[cls.NAME]), cls.NAME


def test_defaults_equal_the_daemons(tmp_path: Path) -> None:
    empty = _write(tmp_path, "")
    lean, full = load_hook_settings(empty, environ={}), load_settings(empty, environ={})
    assert lean.agent_id == full.agent_id
    for section, specs in SPECS.items():
        if not section:
            continue
        for name in specs:
            mine, theirs = (
                getattr(getattr(lean, section), name),
                getattr(getattr(full, section), name),
            )
            if isinstance(theirs, SecretStr):
                assert mine.get_secret_value() == theirs.get_secret_value()
            else:
                assert (mine, type(mine)) == (theirs, type(theirs)), (section, name)


# (key, values as YAML would hand them over): accepted or refused, and the value taken, must be
# the daemon's.
VALUES: list[tuple[str, list[object]]] = [
    (
        "claude.turn_tool_results",
        [True, 1.0, 1.5, "3", " 3 ", "3.0", "x", 2**70, 0, -1, float("inf"), None, [1]],
    ),
    (
        "claude.hook_timeout_s",
        [True, "2", "1e1", 0, 60, 61, float("nan"), float("inf"), "x", None, 0.5],
    ),
    (
        "cases.enabled",
        [1, 0, 2, "yes", "on", "t", "y", "1", "True", "no", "off", "n", "f", "0", 1.0, None, "?"],
    ),
    ("neo4j.database", ["db", 1, True, None, ""]),
    ("neo4j.uri", [None, "bolt://h:1", 1]),
    ("agent_id", ["a-b.c:d_1", "", "a b", "nous\n", 7]),
    ("neo4j.bolt_port", [1, 65535, 65536, 0, "7687"]),
]


@pytest.mark.parametrize(
    ("key", "value"), [(key, value) for key, values in VALUES for value in values]
)
def test_a_value_is_taken_or_refused_as_the_daemon_takes_it(key: str, value: object) -> None:
    overrides = {key: value}
    try:
        full: object = _get(load_settings(environ={}, overrides=overrides), key)
    except SettingsError:
        full = SettingsError
    try:
        lean: object = _get(load_hook_settings(environ={}, overrides=overrides), key)
    except SettingsError:
        lean = SettingsError
    assert (lean, type(lean)) == (full, type(full))


def test_a_bad_value_names_the_key_and_the_file(tmp_path: Path) -> None:
    config = _write(tmp_path, "claude:\n  hook_timeout_s: 0\ncases:\n  per_prompt: many\n")
    with pytest.raises(SettingsError) as err:
        load_hook_settings(config, environ={})
    message = str(err.value)
    assert f"{config}: claude.hook_timeout_s: Input should be greater than 0" in message
    assert f"{config}: cases.per_prompt: Input should be a valid integer" in message


def test_a_bad_environment_value_names_the_variable() -> None:
    env = {"NOUS_CLAUDE__TOOL_INPUT_CHARS": "10"}
    with pytest.raises(SettingsError, match="environment variable NOUS_CLAUDE__TOOL_INPUT_CHARS"):
        load_hook_settings(environ=env)


def test_a_section_that_is_not_a_mapping_is_named(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=r"nous\.yaml: claude: Input should be a valid dict"):
        load_hook_settings(_write(tmp_path, "claude: 5\n"), environ={})


def test_keys_the_hook_does_not_use_are_not_its_business(tmp_path: Path) -> None:
    # The daemon refuses these; a hook leaves them to it and reads what it uses.
    config = _write(tmp_path, "watch:\n  debounse_ms: 10\nclaude:\n  hook_timeout_s: 20\n")
    env = {"NOUS_REASONER": "nonsense", "NOUS_AGENT_ID": "from-env", "NEO4J_PASSWORD": "a: b"}
    with pytest.raises(SettingsError):
        load_settings(config, environ=env)
    settings = load_hook_settings(config, environ=env, overrides={"agent_id": "override"})
    assert settings.claude.hook_timeout_s == 20.0
    assert settings.agent_id == "override"
    assert settings.neo4j.password.get_secret_value() == "a: b"
    assert "a: b" not in repr(settings.neo4j.password) + repr(settings.neo4j)


def _get(settings: object, key: str) -> object:
    value = settings
    for part in key.split("."):
        value = getattr(value, part)
    return value


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "nous.yaml"
    path.write_text(text)
    return path
