"""Typed models of the nodes in the memory graph: data only, they never save themselves.

The access layer in :mod:`graph.store.memory` turns records into these models and
these models into query parameters.

Each model's module is loaded when a name of it is first asked for
(``from graph.models import Decision`` loads :mod:`graph.models.decide`):
a hook's process, which uses a few of the models, builds only those
(issue 27).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from graph.models.base import Node, new_id, utc_now

if TYPE_CHECKING:
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

_HOMES = {
    "Case": "cases",
    "CaseSource": "cases",
    "CaseStatus": "cases",
    "CodeNote": "code_notes",
    "NoteKind": "code_notes",
    "NoteStatus": "code_notes",
    "ActionTarget": "decide",
    "Decision": "decide",
    "DecisionStatus": "decide",
    "DecisionType": "decide",
    "Escalation": "decide",
    "Execution": "decide",
    "Goal": "decide",
    "OpenDecision": "decide",
    "ReasonerKind": "decide",
    "ReasoningStep": "decide",
    "StepName": "decide",
    "ContextBudget": "frame",
    "FrameSpec": "frame",
    "Censor": "learn",
    "Episode": "learn",
    "Event": "learn",
    "Fact": "learn",
    "Lesson": "learn",
    "Pattern": "learn",
    "Procedure": "learn",
    "Turn": "learn",
    "WorkingMemory": "learn",
    "Category": "observe",
    "FileRecord": "observe",
    "Observation": "observe",
    "ObservationType": "observe",
    "Urgency": "observe",
    "Desire": "rsi",
    "DesireStatus": "rsi",
    "Heuristic": "rsi",
    "HeuristicStatus": "rsi",
    "HeuristicTrial": "rsi",
    "Reflection": "rsi",
    "RSICycle": "rsi",
    "Trajectory": "rsi",
}
"""Where each model lives, by name, under ``graph.models``."""

if not TYPE_CHECKING:  # mypy sees the imports above; a misspelled name stays an error there

    def __getattr__(name: str) -> Any:
        """A model, its module loaded on first use."""
        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"graph.models.{home}"), name)
        globals()[name] = value
        return value


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
