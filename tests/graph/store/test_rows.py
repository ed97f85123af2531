"""Typed rows that mirror a node model keep its fields: a model made from one loses nothing."""

from __future__ import annotations

from dataclasses import fields

import pytest

from graph.models import Censor, Episode, Heuristic, Node, Pattern
from graph.store.rows import from_stored
from graph.store.rows.session import CensorRow, EpisodeRow, HeuristicRow, PatternRow


@pytest.mark.parametrize(
    ("row", "model"),
    [(CensorRow, Censor), (HeuristicRow, Heuristic), (EpisodeRow, Episode), (PatternRow, Pattern)],
)
def test_a_mirror_row_has_its_models_fields(row: type, model: type[Node]) -> None:
    assert [f.name for f in fields(row)] == list(model.model_fields)


def test_a_row_from_stored_properties_leaves_out_what_it_does_not_name() -> None:
    stored = {
        "id": "c1",
        "agent_id": "a",
        "at": None,
        "trigger_pattern": "rm -rf /",
        "reason": "no",
        "embedding": [0.1],
        "text": "rm",
        "fire_count": None,
    }
    with pytest.raises(TypeError):  # "at" is required and was null
        from_stored(CensorRow, stored)
    row = from_stored(CensorRow, {**stored, "at": "2026-01-01T00:00:00Z"})
    assert (row.trigger_pattern, row.fire_count, row.severity) == ("rm -rf /", 0, "warn")
