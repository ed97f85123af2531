"""Settings: one pydantic object built from ``nous.yaml`` and the environment.

This is the only module of Nous that reads the environment. Every default
lives here; every other part receives the settings (or a section of them) as
an explicit argument.

Sources, lowest priority first:

1. the defaults below;
2. the YAML file (``nous.yaml`` in the working directory, or ``--config FILE``);
3. the environment: ``NEO4J_URI``, ``NEO4J_USER``, ``NEO4J_PASSWORD``,
   ``NOUS_AGENT_ID`` and ``NOUS_<SECTION>__<KEY>`` (values parsed as YAML
   scalars or flow collections, so ``NOUS_WATCH__DEBOUNCE_MS=250`` and
   ``NOUS_WATCH__IGNORE_PATTERNS='[".git", "tmp"]'`` both work);
4. explicit overrides from the command line (``--root``).

A bad file, key or value raises :class:`SettingsError`, whose message names
the file (or the environment variable) and the dotted key.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from graph.errors import SettingsError

DEFAULT_CONFIG_FILE = Path("nous.yaml")

# Seed 001's ignore list, plus Nous's own state folder and editor droppings
# that would otherwise reach the classifier only to be thrown away as noise.
DEFAULT_IGNORE_PATTERNS: list[str] = [
    ".git",
    ".git/**",
    "__pycache__",
    "__pycache__/**",
    ".venv",
    ".venv/**",
    "*.pyc",
    ".DS_Store",
    "logs/",
    "logs/**",
    "*.db",
    "*.db-journal",
    "node_modules",
    "node_modules/**",
    ".nous",
    ".nous/**",
]

# Seed 000's path table, in its order: the first category whose pattern is a
# substring of the lower-cased relative path wins.
DEFAULT_CATEGORY_PATTERNS: dict[str, list[str]] = {
    "intake": ["_input/", "_intake/", "inbox/"],
    "knowledge": ["knowledge/", "docs/", "research/"],
    "thinker": ["thinkers/", "philosophers/"],
    "index": ["indices/", "index.yaml", "index.md"],
    "template": ["templates/"],
    "config": [".claude/", "config/", ".yaml", ".json", "CLAUDE.md"],
    "self_reference": ["consciousness/", "decision-engine/", "orchestrator/"],
}

# Seed 000's noise list: substrings ('*' dropped) that mark a path as noise.
DEFAULT_NOISE_PATTERNS: list[str] = [
    ".DS_Store",
    ".git/",
    "__pycache__/",
    "*.pyc",
    ".swp",
    "~",
    ".lock",
    "node_modules/",
    ".env.local",
]

_STRICT = ConfigDict(extra="forbid", validate_default=True)


class Neo4jSettings(BaseModel):
    """Where the memory lives, and how a local server is started when none runs."""

    model_config = _STRICT

    uri: str | None = Field(None, description="Bolt URI; when set, nothing else is tried")
    user: str = "neo4j"
    password: SecretStr = SecretStr("nous-local-password")
    database: str = "neo4j"
    version: str = Field("5.26.30", description="Neo4j Community from Maven Central")
    browser_version: str | None = Field("5.24.0", description="Neo4j Browser jar; None skips it")
    home: Path = Field(Path(".nous/neo4j"), description="data, logs and conf of the local server")
    cache_dir: Path = Field(
        Path("~/.cache/nous"), description="jars fetched from Maven Central, shared by every home"
    )
    host: str = "127.0.0.1"
    bolt_port: int = Field(7687, ge=1, le=65535)
    http_port: int = Field(7474, ge=1, le=65535)
    heap_size: str = "1g"
    pagecache_size: str = "512m"
    start_timeout_s: float = Field(180.0, gt=0)
    compose_file: Path = Path("docker-compose.neo4j.yml")


class WatchSettings(BaseModel):
    """The watched folder and how its changes are read."""

    model_config = _STRICT

    root: Path = Path(".")
    ignore_patterns: list[str] = Field(default_factory=lambda: list(DEFAULT_IGNORE_PATTERNS))
    debounce_ms: int = Field(500, ge=10, le=60_000)
    step_ms: int = Field(50, ge=1, le=10_000)
    max_hash_bytes: int = Field(10 * 1024 * 1024, ge=0)


class SenseSettings(BaseModel):
    """Classification, noise, and how observations are grouped and written."""

    model_config = _STRICT

    category_patterns: dict[str, list[str]] = Field(
        default_factory=lambda: {k: list(v) for k, v in DEFAULT_CATEGORY_PATTERNS.items()}
    )
    noise_patterns: list[str] = Field(default_factory=lambda: list(DEFAULT_NOISE_PATTERNS))
    batch_window_s: float = Field(2.0, ge=0)
    max_batch_size: int = Field(10, ge=1)
    write_batch_size: int = Field(1000, ge=1, le=50_000)
    queue_limit: int = Field(100_000, ge=1)


class ScheduleSettings(BaseModel):
    """When the jobs run."""

    model_config = _STRICT

    index_sync_cron: str = "0 */4 * * *"
    status_interval_s: float = Field(30.0, gt=0)
    rescan_at_start: bool = True
    decision_interval_s: float = Field(2.0, gt=0)
    decision_max_observations: int = Field(200, ge=1)
    max_investigation_rounds: int = Field(2, ge=0)
    max_wait_rounds: int = Field(3, ge=0)
    deferred_retry_s: float = Field(60.0, gt=0)
    shutdown_grace_s: float = Field(30.0, ge=0)


class LLMSettings(BaseModel):
    """The OpenAI-compatible endpoint the reasoner talks to (LM Studio by default)."""

    model_config = _STRICT

    base_url: str = "http://localhost:1234/v1"
    model: str = "local-model"
    api_key: SecretStr = SecretStr("lm-studio")
    timeout_s: float = Field(60.0, gt=0)
    max_tokens: int = Field(1024, ge=16)
    temperature: float = Field(0.2, ge=0, le=2)
    health_backoff_s: list[float] = Field(default_factory=lambda: [5.0, 15.0, 60.0, 300.0])


class ThresholdSettings(BaseModel):
    """Seed 000's confidence thresholds for ACT / INVESTIGATE / WAIT / ESCALATE."""

    model_config = _STRICT

    act: float = Field(0.70, ge=0, le=1)
    critical_act: float = Field(0.85, ge=0, le=1)
    investigate: float = Field(0.50, ge=0, le=1)
    escalate: float = Field(0.30, ge=0, le=1)


class GoalSettings(BaseModel):
    """A standing goal, stored as a ``Goal`` node and shown to every decision."""

    model_config = _STRICT

    description: str = Field(min_length=1)
    priority: Literal["low", "medium", "high", "critical"] = "medium"


class ExecutorSettings(BaseModel):
    """How actions are handed to the Claude Code CLI, claude-flow and the rest."""

    model_config = _STRICT

    claude_binary: str = "claude"
    permission_mode: str = "acceptEdits"
    allowed_tools: list[str] = Field(
        default_factory=lambda: ["Read", "Edit", "Write", "Glob", "Grep"]
    )
    max_turns: int = Field(10, ge=1)
    claude_flow_command: list[str] = Field(
        default_factory=lambda: [
            "npx",
            "claude-flow@alpha",
            "swarm",
            "init",
            "--topology",
            "{topology}",
        ]
    )
    timeout_s: float = Field(300.0, gt=0)
    output_cap_bytes: int = Field(1_000_000, ge=1024)
    dry_run: bool = False


class BudgetSettings(BaseModel):
    """Bounds on what the agent may do on its own."""

    model_config = _STRICT

    actions_per_hour: int = Field(20, ge=0)
    max_concurrent: int = Field(1, ge=1)


class RSISettings(BaseModel):
    """Self-improvement cycles (seed 003): reflect, verify, route, practise, crystallise, prune."""

    model_config = _STRICT

    enabled: bool = True
    cycle_interval_s: float = Field(300.0, gt=0)
    max_cycles_per_hour: int = Field(12, ge=1)
    reflection_budget_tokens: int = Field(3000, ge=100)
    emergence_threshold: float = Field(0.6, ge=0, le=1)
    consistency_runs: int = Field(3, ge=2, le=10)
    practice_timeout_s: float = Field(30.0, gt=0)
    crystallize_after: int = Field(5, ge=1)
    dedup_similarity: float = Field(0.90, ge=0, le=1)
    embedding_model: str | None = Field(None, description="/v1/embeddings model; None: llm.model")
    max_strategy_tokens: int = Field(2000, ge=0)
    prune_cron: str = "0 3 * * *"
    prune_min_age_days: float = Field(30.0, ge=0)
    prune_min_usage: int = Field(3, ge=0)
    prune_harm_margin: int = Field(3, ge=1)
    max_heuristics: int = Field(50, ge=1)


class Settings(BaseModel):
    """Everything Nous can be told, with every default in one place."""

    model_config = _STRICT

    agent_id: str = Field("nous", min_length=1, pattern=r"^[A-Za-z0-9_.:-]+$")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    watch: WatchSettings = Field(default_factory=WatchSettings)
    sense: SenseSettings = Field(default_factory=SenseSettings)
    schedule: ScheduleSettings = Field(default_factory=ScheduleSettings)
    reasoner: Literal["auto", "llm", "rules"] = "auto"
    llm: LLMSettings = Field(default_factory=LLMSettings)
    thresholds: ThresholdSettings = Field(default_factory=ThresholdSettings)
    executors: ExecutorSettings = Field(default_factory=ExecutorSettings)
    budget: BudgetSettings = Field(default_factory=BudgetSettings)
    templates_file: Path | None = Field(
        None, description="action templates YAML; None uses the shipped defaults"
    )
    goals: list[GoalSettings] = Field(default_factory=list)
    rsi: RSISettings = Field(default_factory=RSISettings)


# Environment variables that do not follow the NOUS_ prefix convention.
_PLAIN_ENV: dict[str, tuple[str, ...]] = {
    "NEO4J_URI": ("neo4j", "uri"),
    "NEO4J_USER": ("neo4j", "user"),
    "NEO4J_USERNAME": ("neo4j", "user"),
    "NEO4J_PASSWORD": ("neo4j", "password"),
    "NOUS_AGENT_ID": ("agent_id",),
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
        plain = key[-1] in {"password", "uri", "user", "api_key"}
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
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SettingsError(f"{path}: cannot read settings file ({exc.strerror})") from None
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise SettingsError(f"{path}: not valid YAML: {exc}") from None
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
    if not name.startswith("NOUS_") or "__" not in name:
        return None
    parts = name[len("NOUS_") :].lower().split("__")
    return tuple(parts) if all(parts) else None


def _parse_env_value(name: str, value: str) -> Any:
    try:
        return yaml.safe_load(value) if value.strip() else value
    except yaml.YAMLError:
        raise SettingsError(f"environment variable {name}: not a valid value: {value!r}") from None


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
