"""The data that flows through the loop: what recall gathers, what deliberation returns.

These models are the contract between the parts of ``cognition``: recall
fills a :class:`DecisionContext`, the context renderer turns it into prompt
text within the frame's budget, a reasoner turns both into a
:class:`Deliberation`, and the loop records it as a ``Decision`` node with
its ``ReasoningStep`` nodes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from graph.models import (
    Censor,
    DecisionType,
    Goal,
    Observation,
    Pattern,
    ReasonerKind,
    ReasoningStep,
    Urgency,
    WorkingMemory,
)
from graph.models.frame import FrameSpec

Similarity = Literal["same_file", "same_kind", "same_pattern"]


class _Data(BaseModel):
    # Built on first use: a hook loads these with the chat layer and rarely builds one.
    model_config = ConfigDict(extra="forbid", defer_build=True)


class PastDecision(_Data):
    """A past decision recall showed, and why it was thought similar."""

    id: str
    at: datetime
    similarity: Similarity
    type: DecisionType
    confidence: float
    observation_type: str | None = None
    category: str | None = None
    path: str | None = None
    template: str | None = None
    executed: bool = False
    outcome_success: bool | None = None
    outcome: str | None = None

    @property
    def outcome_label(self) -> str:
        """success / failure / pending, as prompts show it."""
        if self.outcome_success is None:
            return "pending"
        return "success" if self.outcome_success else "failure"


class RecalledText(_Data):
    """A fact, procedure, episode or lesson found by full-text recall, or a memory by meaning."""

    id: str
    kind: Literal["fact", "procedure", "episode", "lesson", "similar"]
    text: str
    score: float = 0.0
    at: datetime | None = None


class FileView(_Data):
    """What the loop may show of the primary observation's file."""

    path: str
    exists: bool
    size: int | None = None
    content_head: str | None = None
    binary: bool = False
    error: str | None = None


class TemplateOption(_Data):
    """An action template that matches the observation, offered to the reasoner."""

    name: str
    description: str
    target: str
    parameters: list[str] = Field(default_factory=list)
    """Parameters a reasoner may supply (their only source is its DECIDE reply)."""


class DecisionContext(_Data):
    """Everything recall gathered for one batch of observations."""

    observations: list[Observation] = Field(min_length=1)
    frame: FrameSpec
    file: FileView | None = None
    past_decisions: list[PastDecision] = Field(default_factory=list)
    patterns: list[Pattern] = Field(default_factory=list)
    goals: list[Goal] = Field(default_factory=list)
    censors: list[Censor] = Field(default_factory=list)
    censors_whole_at: int | None = None
    """When ``censors`` holds every active censor of the agent (fewer came back than recall
    asked for): the censor store's write count as recall read them; None otherwise."""
    facts: list[RecalledText] = Field(default_factory=list)
    procedures: list[RecalledText] = Field(default_factory=list)
    episodes: list[RecalledText] = Field(default_factory=list)
    lessons: list[RecalledText] = Field(default_factory=list)
    similar: list[RecalledText] = Field(default_factory=list)
    """Memories whose vector is nearest the primary file's (embeddings on, the file embedded)."""
    templates: list[TemplateOption] = Field(default_factory=list)
    working_memory: WorkingMemory | None = None
    investigation_round: int = 0
    findings: list[str] = Field(default_factory=list)
    """What the investigation before this decision found (empty for a first look)."""

    @property
    def primary(self) -> Observation:
        """The observation the batch is about (the first, most urgent one)."""
        return self.observations[0]

    @property
    def is_critical(self) -> bool:
        """True when any observation of the batch is critical."""
        return any(o.urgency is Urgency.CRITICAL for o in self.observations)

    @property
    def agent_id(self) -> str:
        """The agent the batch belongs to."""
        return self.primary.agent_id


class ContextSection(_Data):
    """One section of a rendered context, after truncation to its budget."""

    label: str
    content: str
    token_estimate: int
    budget: int
    truncated: bool = False
    omitted_items: int = 0


class RenderedContext(_Data):
    """A context rendered as prompt text, section by section."""

    text: str
    sections: list[ContextSection]
    token_estimate: int


class Deliberation(_Data):
    """What a reasoner concluded, with the steps that got it there."""

    decision_type: DecisionType
    confidence: float = Field(ge=0.0, le=1.0)
    raw_confidence: float = Field(ge=0.0, le=1.0)
    reasoning: str
    reasoner: ReasonerKind
    model: str | None = None
    template: str | None = None
    summary: str = ""
    key_facts: list[str] = Field(default_factory=list)
    significance: str = "medium"
    is_critical: bool = False
    steps: list[ReasoningStep] = Field(default_factory=list)
    wait_timeout_s: float | None = None
    investigation_questions: list[str] = Field(default_factory=list)
    escalation_reason: str | None = None
    escalation_priority: str | None = None
    parameters: dict[str, str] = Field(default_factory=dict)
    """Template parameters the reasoner read out (DECIDE), checked against the template."""
    # The strategies (Heuristic ids) the decision applied, validated against those shown.
    applied_strategies: list[str] = Field(default_factory=list)
