"""The settings of Nous's Claude Code side: the hooks (``claude``), the MCP server (``mcp``)
and its team server over HTTP (``mcp.http``).

Sections of :class:`graph.settings_model.Settings`, kept apart so that module stays small.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

_STRICT = ConfigDict(extra="forbid", validate_default=True)  # as every section's
TEAM_URL_PATTERN = r"^https?://[^\s/?#@]+(/[^\s?#]*)?$"
"""A team server's address: http(s), a host (no user or password in it), perhaps a path."""


class ClaudeSettings(BaseModel):
    """Claude Code's hooks (``nous hook EVENT``) and ``nous init claude``."""

    model_config = _STRICT

    hook_timeout_s: float = Field(
        15.0,
        gt=0,
        le=60,
        description="a hook gives up (exit 0, nothing added) after this long"
        " (via the daemon: at most 13 s, see scheduler.claude.hook_server.answer_limit)",
    )
    session_start_tokens: int = Field(
        1500, ge=0, description="what SessionStart adds: strategies, censors, escalations"
    )
    tool_output_chars: int = Field(2000, ge=100, description="a tool's output kept on its turn")
    tool_input_chars: int = Field(500, ge=40, description="each tool input value kept on its turn")
    turn_tool_results: int = Field(200, ge=1, description="tool results a turn keeps, errors first")
    team_url: str | None = Field(
        None,
        max_length=2000,
        pattern=TEAM_URL_PATTERN,
        description="a team server (`nous mcp --http`, http(s)://HOST:PORT) that answers every"
        " hook for the token's agent: the hook then needs no Neo4j",
    )
    team_token: SecretStr | None = Field(
        None, description="the team server's bearer token (`nous tokens create`); better: a file"
    )
    team_token_file: str | None = Field(
        None, min_length=1, description="a file holding the team server's token (outside the repo)"
    )
    team_ca_file: str | None = Field(
        None, min_length=1, description="a PEM CA bundle to check the team server's certificate by"
    )


class McpHttpSettings(BaseModel):
    """``nous mcp --http``: the team server, the MCP tools over streamable HTTP with tokens."""

    model_config = _STRICT

    host: str = Field(
        "127.0.0.1", min_length=1, description="the address to listen on (0.0.0.0: every one)"
    )
    port: int = Field(8765, ge=1, le=65535, description="the port to listen on")
    tls_cert: Path | None = Field(None, description="a PEM certificate (chain): serve HTTPS")
    tls_key: Path | None = Field(None, description="the certificate's PEM private key")
    max_body_bytes: int = Field(
        1_048_576, ge=4096, le=67_108_864, description="a larger request is refused (413)"
    )
    max_sessions: int = Field(
        1000, ge=1, le=100_000, description="open MCP sessions at most; then 503 for a new one"
    )
    max_connections: int = Field(
        2000,
        ge=10,
        le=100_000,
        description="open connections (or requests in hand) at most; then 503 (a client holds"
        " about two)",
    )
    session_idle_s: float = Field(
        1800.0, gt=0, le=86_400, description="a session with no request for this long is closed"
    )

    @model_validator(mode="after")
    def _both_or_neither(self) -> McpHttpSettings:
        if (self.tls_cert is None) != (self.tls_key is None):
            given = "mcp.http.tls_cert" if self.tls_cert is not None else "mcp.http.tls_key"
            raise ValueError(
                f"{given} is set without its pair: give mcp.http.tls_cert and mcp.http.tls_key"
                " together, or neither"
            )
        return self


class McpSettings(BaseModel):
    """``nous mcp``: how much one tool answer may carry back into a model's context."""

    model_config = _STRICT

    max_answer_chars: int = Field(
        8000, ge=500, le=200_000, description="an answer's whole text, fence included"
    )
    recall_tokens: int = Field(
        1500,
        ge=100,
        le=50_000,
        description="the recall tool's budget (characters / 4); its answer fits max_answer_chars",
    )
    list_limit: int = Field(20, ge=1, le=500, description="items a listing tool shows at most")
    max_remember_chars: int = Field(
        4000, ge=100, le=100_000, description="the longest fact or procedure `remember` keeps"
    )
    tool_timeout_s: float = Field(
        20.0, gt=0, le=600, description="a tool's work in Neo4j, at most; then it answers an error"
    )
    http: McpHttpSettings = Field(default_factory=McpHttpSettings)


class HistorySettings(BaseModel):
    """The repository's git history as memory (issue 58): how much of it is read, and when."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = Field(True, description="read the watched folder's git history into memory")
    first_commits: int = Field(
        200, ge=1, le=100_000, description="commits one read takes at most (the first: the newest)"
    )
    max_age_days: float = Field(365.0, gt=0, description="commits older than this are not read")
    session_start_budget_s: float = Field(
        0.3,
        gt=0,
        le=10,
        description="what a SessionStart hook working alone may spend reading history",
    )
    interval_s: float = Field(
        30.0, ge=1, description="how often the daemon looks whether HEAD moved"
    )
