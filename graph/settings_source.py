"""Where settings come from: the YAML file, the environment and overrides, merged as raw data.

Both readers of the settings build on :func:`gather_settings`: the daemon's
(:func:`graph.settings.load_settings`, every key validated by pydantic) and
a hook's (:func:`graph.settings_lean.load_hook_settings`, only the keys a
hook uses, without pydantic). This module imports neither pydantic nor, unless
there is YAML to read, PyYAML: a Claude Code hook pays for what it loads at
every prompt and tool call (issue 27).

Sources, lowest priority first: the YAML file (``nous.yaml`` in the working
directory, or the file named), the environment (``NEO4J_URI``,
``NEO4J_USER``, ``NEO4J_PASSWORD``, ``NOUS_<NAME>`` for a top-level setting,
``NOUS_<SECTION>__<KEY>``, values parsed as YAML scalars or flow
collections), explicit overrides (dotted keys).
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Mapping
from pathlib import Path

from graph.errors import SettingsError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a hook's path)
if TYPE_CHECKING:
    from typing import Any

DEFAULT_CONFIG_FILE = Path("nous.yaml")
EMBEDDING_DIMENSIONS = 384
"""The width of every stored vector: the vector index's (cypher/schema/011_recall_vectors).
Here, not with the models, so what embeds or stores vectors need not load pydantic."""
Key = tuple[str, ...]

# What an environment value is read as without YAML: a word YAML reads as that very string.
_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_YAML_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null"})
# Values taken as they are, never parsed: a password may look like YAML.
_PLAIN_KEYS = frozenset(
    {
        "password",
        "uri",
        "user",
        "api_key",
        "templates_file",
        "team_url",
        "team_token",
        "team_token_file",
        "team_ca_file",
    }
)

# Environment variables that do not follow the NOUS_ prefix convention.
PLAIN_ENV: dict[str, Key] = {
    "NEO4J_URI": ("neo4j", "uri"),
    "NEO4J_USER": ("neo4j", "user"),
    "NEO4J_USERNAME": ("neo4j", "user"),
    "NEO4J_PASSWORD": ("neo4j", "password"),
}


class SettingsData:
    """The merged raw settings, where each key came from, and the file read (or looked for)."""

    __slots__ = ("data", "file", "origins")

    def __init__(self, data: dict[str, Any], origins: dict[Key, str], file: str) -> None:
        self.data = data
        self.origins = origins
        self.file = file

    def origin(self, key: Key) -> str:
        """Where ``key`` (or the closest section above it) was set; the file when nowhere."""
        found = (self.origins.get(key[:n]) for n in range(len(key), 0, -1))
        return next((o for o in found if o is not None), self.file)


def gather_settings(
    config_file: Path | None,
    environ: Mapping[str, str] | None,
    overrides: Mapping[str, Any] | None,
    top_level: Collection[str],
) -> SettingsData:
    """The YAML file's data, then the environment's, then ``overrides``, merged.

    ``config_file=None`` means ``nous.yaml`` in the working directory if it
    exists; a file named explicitly must exist. ``environ=None`` means
    ``os.environ``. ``top_level``: the settings a ``NOUS_<NAME>`` variable may set.
    """
    env = os.environ if environ is None else environ
    explicit = config_file is not None
    path = config_file if config_file is not None else DEFAULT_CONFIG_FILE
    data: dict[str, Any] = read_yaml(path) if explicit or path.exists() else {}
    origins: dict[Key, str] = {leaf: str(path) for leaf in _leaf_keys(data)}
    for name, value in sorted(env.items()):
        key = env_key(name, top_level)
        if key is None:
            continue
        parsed = value if key[-1] in _PLAIN_KEYS else parse_env_value(name, value)
        _assign(data, key, parsed, source=name)
        origins[key] = f"environment variable {name}"
    for dotted, value in (overrides or {}).items():
        path_key = tuple(dotted.split("."))
        _assign(data, path_key, value, source="command line")
        origins[path_key] = "command line"
    return SettingsData(data, origins, str(path))


def read_yaml(path: Path) -> dict[str, Any]:
    """The settings file's top-level mapping (empty for an empty file); :class:`SettingsError`."""
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


def env_key(name: str, top_level: Collection[str]) -> Key | None:
    """The settings key an environment variable sets, or None when it is not a setting's."""
    if name in PLAIN_ENV:
        return PLAIN_ENV[name]
    if not name.startswith("NOUS_"):
        return None
    if "__" not in name:
        # NOUS_REASONER, NOUS_AGENT_ID …: a top-level setting; any other NOUS_ name is not ours.
        top = name[len("NOUS_") :].lower()
        return (top,) if top in top_level else None
    parts = name[len("NOUS_") :].lower().split("__")
    return tuple(parts) if all(parts) else None


def parse_env_value(name: str, value: str) -> Any:
    """An environment value as YAML reads it (a plain word without loading YAML)."""
    if _PLAIN_WORD.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return value  # what YAML would read it as, without loading YAML
    import yaml

    from graph.yamlfile import parse_yaml, yaml_problem

    try:
        return parse_yaml(value) if value.strip() else value
    except yaml.YAMLError as exc:
        why = yaml_problem(exc)
        raise SettingsError(f"environment variable {name}: not a valid value: {why}") from None


def _assign(data: dict[str, Any], key: Key, value: Any, *, source: str) -> None:
    node = data
    for part in key[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise SettingsError(f"{source}: '{'.'.join(key)}' is set but '{part}' is not a section")
        node = child
    node[key[-1]] = value


def _leaf_keys(data: Mapping[str, Any], prefix: Key = ()) -> list[Key]:
    keys: list[Key] = []
    for name, value in data.items():
        key = (*prefix, str(name))
        keys.append(key)
        if isinstance(value, Mapping):
            keys.extend(_leaf_keys(value, key))
    return keys
