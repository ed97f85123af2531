"""Settings: one pydantic object built from ``nous.yaml`` and the environment.

This is the only module of Nous that reads the environment. Every default
lives in :mod:`graph.settings_model`; every other part receives the settings
(or a section of them) as an explicit argument.

Sources, lowest priority first:

1. the defaults (:mod:`graph.settings_model`);
2. the YAML file (``nous.yaml`` in the working directory, or ``--config FILE``);
3. the environment: ``NEO4J_URI``, ``NEO4J_USER``, ``NEO4J_PASSWORD``,
   ``NOUS_<NAME>`` for a top-level setting (``NOUS_AGENT_ID``,
   ``NOUS_REASONER``, ``NOUS_LOG_LEVEL``, ``NOUS_TEMPLATES_FILE``) and
   ``NOUS_<SECTION>__<KEY>`` (values parsed as YAML
   scalars or flow collections, so ``NOUS_WATCH__DEBOUNCE_MS=250`` and
   ``NOUS_WATCH__IGNORE_PATTERNS='[".git", "tmp"]'`` both work);
4. explicit overrides from the command line (``--root``).

A bad file, key or value raises :class:`SettingsError`, whose message names
the file (or the environment variable) and the dotted key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from graph.errors import SettingsError
from graph.settings_claude import (
    ClaudeSettings as ClaudeSettings,
)
from graph.settings_claude import (
    McpSettings as McpSettings,
)
from graph.settings_model import (
    DEFAULT_CATEGORY_PATTERNS as DEFAULT_CATEGORY_PATTERNS,
)
from graph.settings_model import (
    DEFAULT_CONFIG_FILE as DEFAULT_CONFIG_FILE,
)
from graph.settings_model import (
    DEFAULT_IGNORE_PATTERNS as DEFAULT_IGNORE_PATTERNS,
)
from graph.settings_model import (
    DEFAULT_NOISE_PATTERNS as DEFAULT_NOISE_PATTERNS,
)
from graph.settings_model import (
    STATE_DIR as STATE_DIR,
)
from graph.settings_model import (
    BudgetSettings as BudgetSettings,
)
from graph.settings_model import (
    EmbeddingSettings as EmbeddingSettings,
)
from graph.settings_model import (
    ExecutorSettings as ExecutorSettings,
)
from graph.settings_model import (
    GoalSettings as GoalSettings,
)
from graph.settings_model import (
    IntakeSettings as IntakeSettings,
)
from graph.settings_model import (
    LLMSettings as LLMSettings,
)
from graph.settings_model import (
    Neo4jSettings as Neo4jSettings,
)
from graph.settings_model import (
    ScheduleSettings as ScheduleSettings,
)
from graph.settings_model import (
    SenseSettings as SenseSettings,
)
from graph.settings_model import (
    Settings as Settings,
)
from graph.settings_model import (
    ThresholdSettings as ThresholdSettings,
)
from graph.settings_model import (
    WatchSettings as WatchSettings,
)
from graph.settings_model import (
    state_dir as state_dir,
)
from graph.settings_rsi import (
    CaseSettings as CaseSettings,
)
from graph.settings_rsi import (
    CodeNoteSettings as CodeNoteSettings,
)
from graph.settings_rsi import (
    RSISettings as RSISettings,
)

# What an environment value is read as without YAML: a word YAML reads as that very string.
_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_YAML_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null"})

_TOP_LEVEL = frozenset(
    n for n, f in Settings.model_fields.items() if not hasattr(f.default_factory, "model_fields")
)

# Environment variables that do not follow the NOUS_ prefix convention.
_PLAIN_ENV: dict[str, tuple[str, ...]] = {
    "NEO4J_URI": ("neo4j", "uri"),
    "NEO4J_USER": ("neo4j", "user"),
    "NEO4J_USERNAME": ("neo4j", "user"),
    "NEO4J_PASSWORD": ("neo4j", "password"),
}


def load_settings(
    config_file: Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Settings:
    """Build the settings from the YAML file, the environment and overrides.

    ``config_file=None`` means ``nous.yaml`` in the working directory if it
    exists; a file named explicitly must exist. ``environ=None`` means
    ``os.environ``. ``overrides`` maps dotted keys (``"watch.root"``) to
    values and wins over everything else.
    """
    env = os.environ if environ is None else environ
    explicit = config_file is not None
    path = config_file if config_file is not None else DEFAULT_CONFIG_FILE
    data: dict[str, Any] = _read_yaml(path) if explicit or path.exists() else {}
    origins: dict[tuple[str, ...], str] = {}
    for leaf in _leaf_keys(data):
        origins[leaf] = str(path)

    for name, value in sorted(env.items()):
        key = _env_key(name)
        if key is None:
            continue
        plain = key[-1] in {"password", "uri", "user", "api_key", "templates_file"}
        parsed = value if plain else _parse_env_value(name, value)
        _assign(data, key, parsed, source=name)
        origins[key] = f"environment variable {name}"

    for dotted, value in (overrides or {}).items():
        path_key = tuple(dotted.split("."))
        _assign(data, path_key, value, source="command line")
        origins[path_key] = "command line"

    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise SettingsError(_describe(exc, origins, str(path))) from None


def _read_yaml(path: Path) -> dict[str, Any]:
    # YAML is imported only when there is YAML to read: a hook with no settings file and
    # plain words in its environment never pays for it (issue 27).
    import yaml

    from graph.yamlfile import YamlFileError, parse_yaml, read_text, yaml_problem

    try:
        loaded = parse_yaml(read_text(path, what="settings file"))
    except YamlFileError as exc:
        raise SettingsError(str(exc)) from None
    except yaml.YAMLError as exc:
        # Never PyYAML's own message: it quotes the line, which may hold a password.
        raise SettingsError(f"{path}: not valid YAML: {yaml_problem(exc)}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise SettingsError(
            f"{path}: the top level must be a mapping of keys, not a list or scalar"
        )
    return loaded


def _env_key(name: str) -> tuple[str, ...] | None:
    if name in _PLAIN_ENV:
        return _PLAIN_ENV[name]
    if not name.startswith("NOUS_"):
        return None
    if "__" not in name:
        # NOUS_REASONER, NOUS_AGENT_ID …: a top-level setting; any other NOUS_ name is not ours.
        top = name[len("NOUS_") :].lower()
        return (top,) if top in _TOP_LEVEL else None
    parts = name[len("NOUS_") :].lower().split("__")
    return tuple(parts) if all(parts) else None


def _parse_env_value(name: str, value: str) -> Any:
    if _PLAIN_WORD.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return value  # what YAML would read it as, without loading YAML
    import yaml

    from graph.yamlfile import parse_yaml, yaml_problem

    try:
        return parse_yaml(value) if value.strip() else value
    except yaml.YAMLError as exc:
        why = yaml_problem(exc)
        raise SettingsError(f"environment variable {name}: not a valid value: {why}") from None


def _assign(data: dict[str, Any], key: tuple[str, ...], value: Any, *, source: str) -> None:
    node = data
    for part in key[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise SettingsError(f"{source}: '{'.'.join(key)}' is set but '{part}' is not a section")
        node = child
    node[key[-1]] = value


def _leaf_keys(data: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    keys: list[tuple[str, ...]] = []
    for name, value in data.items():
        key = (*prefix, str(name))
        keys.append(key)
        if isinstance(value, Mapping):
            keys.extend(_leaf_keys(value, key))
    return keys


def _describe(exc: ValidationError, origins: Mapping[tuple[str, ...], str], file: str) -> str:
    lines = []
    for error in exc.errors():
        loc = tuple(str(p) for p in error["loc"])
        origin = next(
            (origins[loc[:n]] for n in range(len(loc), 0, -1) if loc[:n] in origins), file
        )
        message = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        lines.append(f"{origin}: {'.'.join(loc)}: {message}")
    return "invalid settings:\n  " + "\n  ".join(lines)


def child_environment() -> dict[str, str]:
    """A copy of this process's environment, for the child processes Nous starts.

    Read here, with the settings, so that no other module touches the
    environment; the parts that start processes (the Neo4j runtime, the
    executors) receive this mapping as an argument.
    """
    return dict(os.environ)
