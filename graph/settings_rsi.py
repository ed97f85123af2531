"""The settings of self-improvement: RSI cycles (``rsi``) and the case bank (``cases``).

Sections of :class:`graph.settings_model.Settings`, kept apart so that module stays small.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

_STRICT = ConfigDict(extra="forbid", validate_default=True)  # as every section's


class RSISettings(BaseModel):
    """Self-improvement cycles (seed 003): reflect, verify, route, practice, crystallize, prune."""

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
    embedding_model: str | None = Field(
        None,
        description="/v1/embeddings model for de-duplication when embeddings.provider is off; "
        "otherwise de-duplication uses the embeddings client",
    )
    max_strategy_tokens: int = Field(2000, ge=0)
    prune_cron: str = "0 3 * * *"
    prune_min_age_days: float = Field(30.0, ge=0)
    prune_min_usage: int = Field(3, ge=0)
    prune_harm_margin: int = Field(3, ge=1)
    max_heuristics: int = Field(50, ge=1)
    # A cycle whose reflection verifies nothing still practices a bootstrap desire, in the
    # weakest of these domains (the first on a tie).
    bootstrap_domains: list[Literal["code", "math", "logic"]] = Field(
        ["code", "math", "logic"], min_length=1
    )
    # A candidate heuristic's paired trial: this many practice problems with and without it;
    # carried only when it wins at least trial_min_wins of them net (with-only - without-only):
    # a principle that changed nothing is not carried. With trial_min_wins 0, the older rule:
    # rejected when it loses more than trial_margin of them net.
    trial_problems: int = Field(8, ge=1, le=100)
    trial_margin: int = Field(0, ge=0)
    trial_min_wins: int = Field(1, ge=0)
    trials_per_cycle: int = Field(1, ge=0)
    # The held-out split practice never draws from: the seed's 20, or a larger one (<= 82).
    held_out_problems: int = Field(20, ge=20, le=82)


class CaseSettings(BaseModel):
    """Cases (issue 25): verified experience recalled per task as worked examples."""

    model_config = _STRICT

    enabled: bool = True
    per_prompt: int = Field(3, ge=0, le=20, description="most cases shown before one attempt")
    max_tokens: int = Field(1200, ge=0, description="token budget of the cases in one prompt")
    # A case is close enough when this share of the task's content words is in its task, or
    # (with vectors) its cosine reaches min_cosine; nothing below both floors is shown.
    min_similarity: float = Field(0.35, ge=0, le=1)
    min_cosine: float = Field(0.85, ge=0, le=1)
    duplicate_similarity: float = Field(0.9, ge=0, le=1, description="word overlap of a repeat")
    max_cases: int = Field(500, ge=1, description="the bank's cap (active cases per agent)")
    prune_harm_margin: int = Field(1, ge=1, description="harmful minus helpful that retires")
    prune_min_age_days: float = Field(14.0, ge=0, description="age after which unused retire")
    field_chars: int = Field(1500, ge=100, le=20_000, description="of each field shown")


class CodeNoteSettings(BaseModel):
    """Code notes (issue 25): what failed and passing runs said about the names code called."""

    model_config = _STRICT

    enabled: bool = True
    per_prompt: int = Field(6, ge=0, le=30, description="most notes shown before one attempt")
    per_name: int = Field(3, ge=1, le=10, description="most notes shown about one name")
    max_tokens: int = Field(600, ge=0, description="token budget of the notes in one prompt")
    max_notes: int = Field(500, ge=1, description="the cap (active notes per agent)")
    prune_harm_margin: int = Field(2, ge=1, description="harmful minus helpful that retires")
    prune_min_age_days: float = Field(30.0, ge=0, description="age after which unused retire")
    field_chars: int = Field(300, ge=40, le=5000, description="of each field shown")
