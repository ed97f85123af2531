"""The frame chosen for an input, and how: what the frames stage hands to the stages after it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from graph.models.frame import ContextBudget, FrameSpec


class FrameSelection(BaseModel):
    """The frame chosen for an input, and how (seed 004's FrameSelection).

    ``frame_id`` is the frame's stable key (``"decision"``), as in seed 004's
    tests; ``frame_name`` its title; ``node_id`` the ``Frame`` node's id.
    ``confidence`` is the winning frame's share of all pattern matches (1.0
    when only it matched, 0.5 for a two-way tie); 0.0 for the default frame
    chosen because nothing matched.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    frame_id: str
    frame_name: str
    confidence: float = Field(ge=0.0, le=1.0)
    match_method: Literal["pattern", "default"]
    node_id: str | None = None
    description: str | None = None
    default_category: str | None = None
    default_stakes: Literal["low", "medium", "high", "critical"] | None = None
    questions_to_ask: list[str] = Field(default_factory=list)
    activation_patterns: list[str] = Field(default_factory=list)
    priority: int = 0
    usage_count: int = Field(default=0, ge=0)
    budget: ContextBudget = Field(default_factory=ContextBudget)

    @classmethod
    def from_spec(
        cls,
        spec: FrameSpec,
        *,
        confidence: float,
        match_method: Literal["pattern", "default"],
        node_id: str | None = None,
        usage_count: int = 0,
    ) -> FrameSelection:
        """The selection of ``spec``."""
        return cls(
            frame_id=spec.name,
            frame_name=spec.title,
            confidence=confidence,
            match_method=match_method,
            node_id=node_id,
            description=spec.description or None,
            default_category=spec.default_category,
            default_stakes=spec.default_stakes,
            questions_to_ask=list(spec.questions_to_ask),
            activation_patterns=list(spec.activation_patterns),
            priority=spec.priority,
            usage_count=usage_count,
            budget=spec.budget,
        )

    def spec(self) -> FrameSpec:
        """The frame itself, as :mod:`cognition.frames.spec` and the context engine take it."""
        return FrameSpec(
            name=self.frame_id,
            title=self.frame_name,
            description=self.description or "",
            activation_patterns=tuple(self.activation_patterns),
            default_category=self.default_category,
            default_stakes=self.default_stakes,
            questions_to_ask=tuple(self.questions_to_ask),
            priority=self.priority,
            budget=self.budget,
        )
