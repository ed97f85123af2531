"""Recall.build against a real Neo4j and a real folder: what it reads, queries and leaves alone."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cognition.frames.spec import SEED_FRAMES
from cognition.recall.gather import Recall, pattern_keys, recall_limits, recalled_decision_ids
from cognition.schemas import FileView, TemplateOption
from graph.models import Category, Observation, ObservationType
from graph.models.frame import ContextBudget, FrameSpec
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.support.recall_seed import T0, Seeder, seeding

FRAMES = {f.name: f for f in SEED_FRAMES}
TEMPLATE = TemplateOption(name="analyze_knowledge", description="analyse it", target="dry_run")


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


def observation(memory: Memory, path: str | None = "notes/kant.md", **extra: object) -> Observation:
    return Observation.model_validate(
        {
            "agent_id": memory.agent_id,
            "type": ObservationType.FILE_MODIFIED,
            "category": Category.KNOWLEDGE,
            "path": path,
            **extra,
        }
    )


class Templates:
    """A templates_for that records what it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[Observation, FileView | None]] = []

    def __call__(self, obs: Observation, file: FileView | None) -> list[TemplateOption]:
        self.seen.append((obs, file))
        return [TEMPLATE]


async def seed_everything(seed: Seeder) -> dict[str, str]:
    ids = {
        "same_file": await seed.decision("notes/kant.md", outcome_success=True, minutes=1),
        "same_kind": await seed.decision("x/hume.txt", minutes=2),
        "same_pattern": await seed.decision("notes/b.md", category="intake", minutes=3),
    }
    await seed.nodes("facts", {"content": "Kant lived in Königsberg", "confirmations": 2})
    await seed.nodes("facts", {"content": "Spinoza ground lenses"})
    await seed.nodes("procedures", {"name": "kant notes", "core_patterns": ["cite the page"]})
    await seed.nodes(
        "episodes",
        {"session_id": "s0", "started_at": T0, "summary": "filed kant notes", "lessons": []},
    )
    await seed.nodes(
        "lessons",
        {"decision_id": ids["same_file"], "type": "pattern_success", "adjustment": "increase",
         "reason": "kant notes go well"},
    )  # fmt: skip
    await seed.nodes("censors", {"trigger_pattern": "rm -rf", "reason": "no", "status": "active"})
    await seed.nodes("goals", {"description": "keep notes tidy", "priority": "high"})
    await seed.nodes(
        "heuristics", {"domain": "notes", "content": "cite sources", "status": "active"}
    )
    await seed.nodes("working_memory", {"session_id": "s1", "current_task": "filing notes"})
    await seed.nodes(
        "patterns", {"key": "knowledge:file_modified:act:analyze_knowledge", "total": 4}
    )
    return ids


async def test_build_gathers_every_section(memory: Memory, seed: Seeder, tmp_path: Path) -> None:
    ids = await seed_everything(seed)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "kant.md").write_text("# Kant\nSapere aude.\n")
    templates = Templates()
    recall = Recall(memory, tmp_path, templates)

    ctx = await recall.build([observation(memory)], FRAMES["decision"], session_id="s1")

    assert ctx.file == FileView(
        path="notes/kant.md", exists=True, size=20, content_head="# Kant\nSapere aude.\n"
    )
    assert templates.seen == [(ctx.primary, ctx.file)]
    assert [(d.id, d.similarity) for d in ctx.past_decisions] == [
        (ids["same_file"], "same_file"),
        (ids["same_kind"], "same_kind"),
        (ids["same_pattern"], "same_pattern"),
    ]
    assert ctx.past_decisions[0].outcome_label == "success"
    assert recalled_decision_ids(ctx) == [ids["same_file"], ids["same_kind"], ids["same_pattern"]]
    assert [f.text for f in ctx.facts] == ["Kant lived in Königsberg [confirmed 2x]"]
    assert [p.text for p in ctx.procedures] == ["**kant notes**: cite the page"]
    assert [e.text for e in ctx.episodes] == ["[open] filed kant notes (2026-01-01)"]
    assert [x.text for x in ctx.lessons] == [
        "pattern_success: kant notes go well (adjustment: increase)"
    ]
    assert [c.trigger_pattern for c in ctx.censors] == ["rm -rf"]
    assert [g.description for g in ctx.goals] == ["keep notes tidy"]
    assert ctx.working_memory is not None and ctx.working_memory.current_task == "filing notes"
    # Strategies reach the model in the system prompt (with their ids), never twice.
    assert "cite sources" not in ctx.model_dump_json()
    assert [p.key for p in ctx.patterns] == ["knowledge:file_modified:act:analyze_knowledge"]
    assert ctx.templates == [TEMPLATE]


async def test_zero_budget_sections_are_not_queried(
    memory: Memory, seed: Seeder, tmp_path: Path
) -> None:
    await seed_everything(seed)
    ctx = await Recall(memory, tmp_path, Templates()).build(
        [observation(memory)], FRAMES["conversation"], session_id="s1"
    )
    assert FRAMES["conversation"].budget.procedures == 0
    assert ctx.procedures == [] and ctx.episodes == [] and ctx.lessons == []
    assert ctx.facts and ctx.past_decisions and ctx.censors
    silent = FrameSpec(
        name="silent", title="Silent", budget=ContextBudget(total=0, identity=0, **_NONE)
    )
    templates = Templates()
    ctx = await Recall(memory, tmp_path, templates).build([observation(memory)], silent)
    assert ctx.past_decisions == [] and ctx.facts == [] and ctx.censors == [] and ctx.goals == []
    assert ctx.file is None and ctx.templates == [] and templates.seen == []


_NONE = dict.fromkeys(
    ("censors", "frame", "working_memory", "decisions", "facts", "procedures", "episodes"), 0
)


async def test_investigation_recalls_deeper_with_its_questions(
    memory: Memory, seed: Seeder, tmp_path: Path
) -> None:
    await seed_everything(seed)
    for minute in range(30):
        await seed.decision(f"notes/n{minute}.md", minutes=10 + minute)
    frame = FRAMES["task"]
    first = recall_limits(frame.budget)
    deeper = recall_limits(frame.budget, investigation_round=1)
    assert all(deeper[k] == 2 * first[k] for k in first)
    recall = Recall(memory, tmp_path, Templates())

    look = await recall.build([observation(memory)], frame)
    again = await recall.build(
        [observation(memory)], frame, investigation_round=1, extra_queries=["Who was Spinoza?"]
    )
    assert len(again.past_decisions) > len(look.past_decisions)
    assert again.investigation_round == 1
    assert "Spinoza ground lenses [confirmed 1x]" not in [f.text for f in look.facts]
    assert "Spinoza ground lenses [confirmed 1x]" in [f.text for f in again.facts]


async def test_special_characters_in_the_input_do_not_break_recall(
    memory: Memory, seed: Seeder, tmp_path: Path
) -> None:
    await seed_everything(seed)
    odd = observation(
        memory,
        path='notes/kant "AND" (x)^2 ~*?:[]{}\\.md',
        metadata={"error": 'title:"x" OR || && ! -a +b /re/'},
    )
    ctx = await Recall(memory, tmp_path, Templates()).build(
        [odd], FRAMES["debug"], extra_queries=["\\", '"', "(", "NOT"]
    )
    assert ctx.file is not None and not ctx.file.exists
    assert "Kant lived in Königsberg [confirmed 2x]" in [f.text for f in ctx.facts]


async def test_files_outside_the_root_are_not_read(memory: Memory, tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("password=hunter2")
    (root / "link.txt").symlink_to(outside / "secret.txt")
    (root / "out").symlink_to(outside, target_is_directory=True)
    recall = Recall(memory, root, Templates())

    for path in ("link.txt", "out/secret.txt", "../outside/secret.txt", "/etc/passwd"):
        ctx = await recall.build([observation(memory, path)], FRAMES["task"])
        assert ctx.file is not None and ctx.file.content_head is None, path
        assert ctx.file.error, path


async def test_binary_deleted_and_unreadable_files_have_no_content(
    memory: Memory, tmp_path: Path
) -> None:
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (tmp_path / "locked.md").write_text("private")
    os.chmod(tmp_path / "locked.md", 0)
    (tmp_path / "folder.md").mkdir()
    recall = Recall(memory, tmp_path, Templates())

    async def view(path: str) -> FileView:
        ctx = await recall.build([observation(memory, path)], FRAMES["task"])
        assert ctx.file is not None
        return ctx.file

    assert await view("image.png") == FileView(path="image.png", exists=True, size=11, binary=True)
    assert await view("gone.md") == FileView(path="gone.md", exists=False)
    assert (await view("folder.md")).error == "not a regular file"
    if os.geteuid() != 0:  # root reads anything
        locked = await view("locked.md")
        assert locked.content_head is None and locked.error and locked.error.startswith("cannot")
    no_path = await recall.build([observation(memory, None)], FRAMES["task"])
    assert no_path.file is None


async def test_content_head_is_capped_without_splitting_a_character(
    memory: Memory, tmp_path: Path
) -> None:
    (tmp_path / "big.md").write_text("é" * 10_000, encoding="utf-8")
    recall = Recall(memory, tmp_path, Templates(), max_content_bytes=101)
    ctx = await recall.build([observation(memory, "big.md")], FRAMES["task"])
    assert ctx.file is not None and ctx.file.size == 20_000
    assert ctx.file.content_head == "é" * 50


async def test_a_recall_that_reads_no_files_still_recalls(memory: Memory, tmp_path: Path) -> None:
    (tmp_path / "big.md").write_text("# Big\n")
    changed = observation(memory, "big.md")
    reading = await Recall(memory, tmp_path, Templates()).build([changed], FRAMES["task"])
    blind_templates = Templates()
    blind = await Recall(memory, tmp_path, blind_templates, read_files=False).build(
        [changed], FRAMES["task"]
    )
    assert blind_templates.seen == [(changed, None)]
    assert reading.file is not None and reading.file.content_head == "# Big\n"
    assert blind.file is None
    assert blind.model_copy(update={"file": reading.file}) == reading


def test_pattern_keys_cover_every_decision_for_the_kind(memory: Memory) -> None:
    keys = pattern_keys(observation(memory), [TEMPLATE])
    assert keys == [
        "knowledge:file_modified:act:analyze_knowledge",
        # The template's record on this kind of path, consulted first when it has one.
        "knowledge:file_modified:act:analyze_knowledge on notes/*.md",
        "knowledge:file_modified:act:custom",
        "knowledge:file_modified:wait:custom",
        "knowledge:file_modified:investigate:custom",
        "knowledge:file_modified:escalate:custom",
    ]


async def test_build_needs_an_observation(memory: Memory, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least one"):
        await Recall(memory, tmp_path, Templates()).build([], FRAMES["task"])
