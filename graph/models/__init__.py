"""Typed models of the nodes in the memory graph: data only, they never save themselves.

The access layer in :mod:`graph.store.memory` turns records into these models and
these models into query parameters.
"""

from graph.models.base import Node, new_id, utc_now
from graph.models.cases import Case, CaseSource, CaseStatus
from graph.models.code_notes import CodeNote, NoteKind, NoteStatus
from graph.models.decide import (
    ActionTarget,
    Decision,
    DecisionStatus,
    DecisionType,
    Escalation,
    Execution,
    Goal,
    OpenDecision,
    ReasonerKind,
    ReasoningStep,
    StepName,
)
from graph.models.frame import ContextBudget, FrameSpec
from graph.models.learn import (
    Censor,
    Episode,
    Event,
    Fact,
    Lesson,
    Pattern,
    Procedure,
    Turn,
    WorkingMemory,
)
from graph.models.observe import (
    Category,
    FileRecord,
    Observation,
    ObservationType,
    Urgency,
)
from graph.models.rsi import (
    Desire,
    DesireStatus,
    Heuristic,
    HeuristicStatus,
    HeuristicTrial,
    Reflection,
    RSICycle,
    Trajectory,
)

__all__ = [
    "ActionTarget",
    "Case",
    "CaseSource",
    "CaseStatus",
    "Category",
    "Censor",
    "CodeNote",
    "ContextBudget",
    "Decision",
    "DecisionStatus",
    "DecisionType",
    "Desire",
    "DesireStatus",
    "Episode",
    "Escalation",
    "Event",
    "Execution",
    "Fact",
    "FileRecord",
    "FrameSpec",
    "Goal",
    "Heuristic",
    "HeuristicStatus",
    "HeuristicTrial",
    "Lesson",
    "Node",
    "NoteKind",
    "NoteStatus",
    "Observation",
    "ObservationType",
    "OpenDecision",
    "Pattern",
    "Procedure",
    "RSICycle",
    "ReasonerKind",
    "ReasoningStep",
    "Reflection",
    "StepName",
    "Trajectory",
    "Turn",
    "Urgency",
    "WorkingMemory",
    "new_id",
    "utc_now",
]
