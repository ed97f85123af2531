"""Whether any loaded template could ever act on an observation (the loop's question)."""

from __future__ import annotations

from typing import Any

from cognition.act.applicable import applicable_templates
from cognition.act.templates import load_templates
from cognition.sense.classify import ObservationClassifier
from graph.models.observe import Observation, ObservationType
from graph.settings import SenseSettings

T = ObservationType
CLASSIFIER = ObservationClassifier(SenseSettings())
REGISTRY = load_templates(None)


def observe(kind: ObservationType, path: str | None = None, **metadata: Any) -> Observation:
    return CLASSIFIER.classify(
        Observation(agent_id="test", type=kind, path=path, metadata=metadata)
    )


def names(observation: Observation) -> list[str]:
    return [t.name for t in applicable_templates(observation, REGISTRY)]


def test_intake_file_could_be_acted_on_whatever_its_content() -> None:
    # create_thinker needs "new thinker:" in the content, which may come later.
    assert names(observe(T.FILE_CREATED, "_intake/note.md")) == [
        "process_intake",
        "create_thinker",
    ]


def test_knowledge_file_gets_update_index_but_an_index_file_does_not() -> None:
    assert names(observe(T.FILE_MODIFIED, "knowledge/a/b.md")) == ["update_index"]
    assert names(observe(T.FILE_MODIFIED, "knowledge/a/index.md")) == []


def test_code_and_config_outside_the_layout_get_nothing() -> None:
    assert names(observe(T.FILE_MODIFIED, "src/pkg/db.py")) == []
    assert names(observe(T.FILE_MODIFIED, ".github/workflows/ci.yml")) == []


def test_scheduled_trigger_needs_its_metadata() -> None:
    assert names(observe(T.SCHEDULE_TRIGGERED, job="index_sync")) == ["periodic_index_sync"]
    assert names(observe(T.SCHEDULE_TRIGGERED, job="other")) == []
    assert names(observe(T.SCHEDULE_TRIGGERED)) == []


def test_own_edit_gets_nothing() -> None:
    own = observe(T.FILE_MODIFIED, "_intake/a.md").model_copy(update={"caused_by": "exec-1"})
    assert names(own) == []
