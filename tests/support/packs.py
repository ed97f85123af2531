"""Small folders of each kind, and a change planned the way the loop plans it.

``planned`` classifies a change as the ingestor does, reads the file as recall
does, offers the templates recall offers, lets the real rules reasoner
deliberate and hands its deliberation to the real planner (censors looked up
in Neo4j).
"""

from __future__ import annotations

from pathlib import Path

from cognition.act.action import PlannedAction
from cognition.act.applicable import applicable_templates
from cognition.act.fillable import template_options
from cognition.act.plan import plan
from cognition.act.templates import TemplateRegistry
from cognition.deliberate import RulesReasoner
from cognition.frames.spec import SEED_FRAMES
from cognition.recall.file_head import read_file_view
from cognition.schemas import DecisionContext, Deliberation, RenderedContext
from cognition.sense.classify import ObservationClassifier
from graph.models import DecisionType, Observation, ObservationType
from graph.settings import SenseSettings, ThresholdSettings
from graph.store.memory import Memory

DECISION_FRAME = next(frame for frame in SEED_FRAMES if frame.name == "decision")
_CLASSIFIER = ObservationClassifier(SenseSettings())
_RENDERED = RenderedContext(text="(context)", sections=[], token_estimate=1)


def make_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text) under ``root``; folders end in '/'."""
    for rel, text in files.items():
        target = root / rel
        if rel.endswith("/"):
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


def change(memory: Memory, kind: ObservationType, path: str, **metadata: object) -> Observation:
    """A change as the ingestor records it: classified by the default tables."""
    observation = Observation(agent_id=memory.agent_id, type=kind, path=path, metadata=metadata)
    return _CLASSIFIER.classify(observation)


async def planned(
    memory: Memory,
    root: Path,
    templates: TemplateRegistry,
    observation: Observation,
    *,
    acting: bool = False,
) -> tuple[PlannedAction | None, Deliberation, list[str]]:
    """What the loop would plan for ``observation``: action, deliberation, applicable names.

    ``acting``: plan as if the reasoner had decided ACT with the template it
    matched (the rules investigate a critical failure before acting on it).
    """
    view = read_file_view(root, observation.path, 8192) if observation.path else None
    context = DecisionContext(
        observations=[observation],
        frame=DECISION_FRAME,
        file=view,
        templates=template_options(templates, observation, view),
    )
    deliberation = await RulesReasoner(ThresholdSettings()).deliberate(context, _RENDERED)
    if acting:
        deliberation = deliberation.model_copy(update={"decision_type": DecisionType.ACT})
    action, deliberation = await plan(deliberation, context, templates, memory.censors)
    names = [t.name for t in applicable_templates(observation, templates)]
    return action, deliberation, names
