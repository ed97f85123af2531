"""The learning bench's stream and the runner that decides it, one observation at a time.

The stream: intake notes in two folders, each outcome drawn once (seeded);
the stand-in Claude Code CLI is scripted by path so both runs meet the same
outcome. A :class:`Runner` builds the daemon's own loop on a memory and
decides one note with it (:mod:`bench.learning` drives the two runs).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

from bench.rig import open_loop
from cognition.sense.classify import ObservationClassifier
from graph.models import DecisionType, Observation, ObservationType, ReasonerKind
from graph.settings import Settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from scheduler.compose.loop import LoopRuntime, load_action_templates

STAND_IN = Path(__file__).resolve().parents[1] / "tests" / "bin" / "claude"
BAD, GOOD = "_intake/reports", "_intake/notes"
FAIL_RATE = {BAD: 0.9, GOOD: 0.1}
# Not transient by cognition.monitor's reading: a retry would fail the same way.
FAILURE = "Error: this report's layout is not one the intake procedure can file (schema mismatch)"


@dataclass(frozen=True, slots=True)
class Item:
    """One observation of the stream: its file and whether acting on it fails."""

    path: str
    folder: str
    fails: bool


@dataclass
class Tally:
    """What one run did with one observation, or with a block of them."""

    actions: int = 0
    failed: int = 0
    escalations: int = 0
    waits: int = 0
    investigations: int = 0
    by_model: int = 0  # decisions the model made (the rest: the rules, as its fallback)
    actions_by_folder: dict[str, int] = field(default_factory=lambda: {BAD: 0, GOOD: 0})

    def add(self, other: Tally) -> None:
        """Count ``other`` into this tally."""
        self.actions += other.actions
        self.failed += other.failed
        self.escalations += other.escalations
        self.waits += other.waits
        self.investigations += other.investigations
        self.by_model += other.by_model
        for folder, count in other.actions_by_folder.items():
            self.actions_by_folder[folder] += count


def stream(count: int, seed: int) -> list[Item]:
    """``count`` observations, each folder chosen at random, each outcome drawn once."""
    rng = random.Random(seed)
    items = []
    for i in range(count):
        folder = rng.choice([BAD, GOOD])
        items.append(Item(f"{folder}/n{i:04d}.md", folder, rng.random() < FAIL_RATE[folder]))
    return items


def stand_in_script(items: Sequence[Item]) -> dict[str, object]:
    """The stand-in's script, by path: a drawn failure, or the knowledge note the template
    asks for (``process_intake`` checks that something under ``knowledge/`` changed)."""
    return {
        "by_prompt": {
            item.path: (
                {"is_error": True, "result": FAILURE, "exit_code": 1}
                if item.fails
                else {"edits": [{"path": f"knowledge/{Path(item.path).stem}.md", "content": "x\n"}]}
            )
            for item in items
        }
    }


class Runner:
    """Builds a loop on a memory and decides one observation at a time with it.

    Each runner has a watched root of its own (the notes and the stand-in's
    script), so what one run's actions wrote is new to the other's.
    """

    def __init__(self, settings: Settings, driver: GraphDriver, tmp: Path, items: Sequence[Item]):
        self.settings, self.driver = settings, driver
        self.root = tmp / "root"
        for item in items:
            (self.root / item.folder).mkdir(parents=True, exist_ok=True)
            note = self.root / item.path
            if not note.exists():  # a kept run's notes are as its first sitting wrote them
                note.write_text(f"# {item.path}\n\nA note to file.\n")
        script = tmp / "claude.json"
        script.write_text(json.dumps(stand_in_script(items)))
        self.env = {"PATH": os.environ.get("PATH", ""), "FAKE_CLAUDE_SCRIPT": str(script)}
        self.classifier = ObservationClassifier(settings.sense)
        # The runner's own root before the templates are looked up (a templates file under
        # the folder the bench was started from must not change what it measures).
        settings.watch.root = self.root
        self.templates = load_action_templates(settings)
        self.stacks: dict[str, AsyncExitStack] = {}  # each open loop's clean-ups, by agent

    async def open(self, agent_id: str) -> tuple[Memory, LoopRuntime]:
        """A fresh memory under ``agent_id`` and the daemon's loop over it."""
        memory = Memory(self.driver, agent_id)
        stack = AsyncExitStack()
        self.stacks[agent_id] = stack
        rig = await open_loop(
            stack,
            self.settings,
            memory,
            self.root,
            self.env,
            classifier=self.classifier,
            templates=self.templates,
        )
        return memory, rig.runtime

    async def decide(self, memory: Memory, runtime: LoopRuntime, item: Item) -> Tally:
        """Decide on one new note and wait for its action, if any; what came of it."""
        observation = self.classifier.classify(
            Observation(agent_id=memory.agent_id, type=ObservationType.FILE_CREATED, path=item.path)
        )
        await memory.record_observations([observation])
        decision = await runtime.loop.decide([observation])
        await runtime.loop.idle()
        tally = Tally(by_model=int(decision.reasoner is ReasonerKind.LLM))
        if decision.type is DecisionType.ACT:
            tally.actions = 1
            tally.actions_by_folder[item.folder] = 1
            tally.failed = int(decision.outcome_success is False)
        elif decision.type is DecisionType.ESCALATE:
            tally.escalations = 1
        elif decision.type is DecisionType.WAIT:
            tally.waits = 1
        else:
            tally.investigations = 1
        return tally

    async def close(self, memory: Memory, runtime: LoopRuntime, *, forget: bool = True) -> None:
        """Stop the loop, end its episode and (unless a kept run pauses) forget the memory."""
        await runtime.loop.stop(0.0)
        await self.stacks.pop(memory.agent_id).aclose()
        if forget:
            await memory.forget()
