"""Helpers of the action-template tests: classified observations, file facts, the shipped file."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from cognition.act.conditions import FileFacts
from cognition.sense.classify import ObservationClassifier
from graph.models.observe import Observation, ObservationType
from graph.settings import SenseSettings

SHIPPED = Path(__file__).resolve().parents[2] / "cognition" / "act" / "templates.yaml"
T = ObservationType
CLASSIFIER = ObservationClassifier(SenseSettings())


def observe(kind: ObservationType, path: str | None = None, **metadata: Any) -> Observation:
    """An observation as Nous would have it: classified by the real classifier."""
    return CLASSIFIER.classify(
        Observation(agent_id="test", type=kind, path=path, metadata=metadata)
    )


def facts(content: str | None = "plain text", size: int | None = 100, errors: int = 0) -> FileFacts:
    return FileFacts(size=size, content_head=content, error_count=errors)


def shipped_data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))
    return copy.deepcopy(data)


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "templates.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path
