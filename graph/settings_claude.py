"""The settings of Nous's Claude Code side: the hooks (``claude``) and the MCP server (``mcp``).

Sections of :class:`graph.settings_model.Settings`, kept apart so that module stays small.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

_STRICT = ConfigDict(extra="forbid", validate_default=True)  # as every section's


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
