"""Action templates: the shipped file, and which templates an observation matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from cognition.act.conditions import FileFacts
from cognition.act.templates import ActionTemplate, TemplateRegistry, load_templates
from graph.models.observe import Observation
from tests.support.action_templates import SHIPPED, T, facts, observe, write

SIX = [
    "process_intake",
    "update_index",
    "research_topic",
    "create_thinker",
    "handle_failure",
    "periodic_index_sync",
]


# --- the shipped file -------------------------------------------------------------------------


def test_every_shipped_template_loads_and_validates(registry: TemplateRegistry) -> None:
    assert registry.names() == SIX
    assert len(registry) == 6
    assert registry.file.endswith("templates.yaml")
    for template in registry:
        assert isinstance(template, ActionTemplate)
        assert template.version >= 1
        assert template.file == registry.file
        # Re-validating what was loaded finds nothing new.
        ActionTemplate.model_validate(template.model_dump())


def test_load_with_an_explicit_path_is_the_same_as_the_default(registry: TemplateRegistry) -> None:
    assert load_templates(SHIPPED).names() == registry.names()


def test_targets_follow_the_seed(registry: TemplateRegistry) -> None:
    targets = {t.name: (t.target, t.function) for t in registry}
    assert targets == {
        "process_intake": ("claude_code", None),
        "update_index": ("claude_code", None),
        "research_topic": ("claude_flow", None),
        "create_thinker": ("claude_code", None),
        "handle_failure": ("internal", "handle_failure"),
        "periodic_index_sync": ("claude_code", None),
    }
    research = registry.get("research_topic")
    assert (research.topology, research.strategy, len(research.agents)) == ("mesh", "research", 3)


def test_get_and_contains(registry: TemplateRegistry) -> None:
    with pytest.raises(KeyError, match="no action template named 'nope'"):
        registry.get("nope")
    assert "update_index" in registry
    assert "nope" not in registry


# --- matching: each of the six fires on its observation and not on the others' ----------------

DRAFT = "title: Why\nstatus: draft\n"
MATCH_TABLE: list[tuple[str, Observation, FileFacts, list[str]]] = [
    ("intake note", observe(T.FILE_CREATED, "_input/notes.md"), facts(), ["process_intake"]),
    ("intake, nested", observe(T.FILE_MODIFIED, "inbox/a/b.txt"), facts(), ["process_intake"]),
    ("intake pdf", observe(T.FILE_CREATED, "_intake/paper.pdf"), facts(), ["process_intake"]),
    (
        "intake thinker",
        observe(T.FILE_CREATED, "_input/kant.md"),
        facts("New Thinker: Immanuel Kant"),
        ["create_thinker", "process_intake"],
    ),
    (
        "thinker request in a binary",
        observe(T.FILE_CREATED, "_input/kant.bin"),
        facts("create profile for Hume"),
        ["create_thinker"],
    ),
    ("intake exe", observe(T.FILE_CREATED, "_input/tool.exe"), facts(), []),
    ("intake too big", observe(T.FILE_CREATED, "_input/a.pdf"), facts(size=20 << 20), []),
    ("intake size unknown", observe(T.FILE_CREATED, "_input/a.md"), facts(size=None), []),
    ("intake deleted", observe(T.FILE_DELETED, "_input/a.md"), facts(None, None), []),
    ("knowledge edit", observe(T.FILE_MODIFIED, "knowledge/a/b.md"), facts(), ["update_index"]),
    ("knowledge top", observe(T.FILE_CREATED, "knowledge/b.yaml"), facts(), ["update_index"]),
    (
        "knowledge gone",
        observe(T.FILE_DELETED, "knowledge/a.md"),
        facts(None, None),
        ["update_index"],
    ),
    ("knowledge moved", observe(T.FILE_MOVED, "knowledge/x/a.md"), facts(), ["update_index"]),
    ("index itself", observe(T.FILE_MODIFIED, "knowledge/index.md"), facts(), []),
    ("nested index", observe(T.FILE_MODIFIED, "knowledge/x/index.yaml"), facts(), []),
    ("knowledge txt", observe(T.FILE_MODIFIED, "knowledge/a.txt"), facts(), []),
    (
        "draft thought",
        observe(T.FILE_CREATED, "knowledge/philosophy/thoughts/why.md"),
        facts(DRAFT),
        ["research_topic", "update_index"],
    ),
    (
        "thought asking for research",
        observe(T.FILE_CREATED, "knowledge/thoughts/t.txt"),
        facts("needs_research: TRUE"),
        ["research_topic"],
    ),
    (
        "finished thought",
        observe(T.FILE_CREATED, "knowledge/thoughts/why.md"),
        facts("status: final"),
        ["update_index"],
    ),
    (
        "draft edited, not created",
        observe(T.FILE_MODIFIED, "knowledge/thoughts/why.md"),
        facts(DRAFT),
        ["update_index"],
    ),
    ("task failed", observe(T.TASK_FAILED, error="boom"), facts(None, None), ["handle_failure"]),
    (
        "process failed twice before",
        observe(T.PROCESS_FAILED, error="boom"),
        facts(None, None, errors=2),
        ["handle_failure"],
    ),
    ("failing for ever", observe(T.TASK_FAILED), facts(None, None, errors=3), []),
    (
        "index sync due",
        observe(T.SCHEDULE_TRIGGERED, job="index_sync"),
        facts(None, None),
        ["periodic_index_sync"],
    ),
    ("other schedule", observe(T.SCHEDULE_TRIGGERED, job="rsi"), facts(None, None), []),
    ("schedule, no job", observe(T.SCHEDULE_TRIGGERED), facts(None, None), []),
    ("template folder", observe(T.FILE_MODIFIED, "templates/t.md"), facts(), []),
    ("config", observe(T.FILE_MODIFIED, "config/x.yaml"), facts(), []),
    ("task completed", observe(T.TASK_COMPLETED), facts(None, None), []),
]


@pytest.mark.parametrize(
    ("observation", "file_facts", "expected"),
    [row[1:] for row in MATCH_TABLE],
    ids=[row[0] for row in MATCH_TABLE],
)
def test_match_table(
    registry: TemplateRegistry,
    observation: Observation,
    file_facts: FileFacts,
    expected: list[str],
) -> None:
    assert [t.name for t in registry.match(observation, file_facts)] == expected


def test_the_table_gives_each_template_first_place_somewhere() -> None:
    firsts = {row[3][0] for row in MATCH_TABLE if row[3]}
    assert firsts == set(SIX)


def test_the_agents_own_edits_match_nothing(registry: TemplateRegistry) -> None:
    own = observe(T.FILE_CREATED, "_input/notes.md").model_copy(update={"caused_by": "exec-1"})
    assert registry.match(own, facts()) == []


def test_ties_keep_file_order_and_literal_globs_win(tmp_path: Path) -> None:
    base = {"version": 1, "title": "t", "target": "dry_run", "prompt_template": "{{ path }}"}
    data = {
        "templates": {
            "broad": {**base, "trigger": {"path_patterns": ["docs/**"]}},
            "first_equal": {**base, "trigger": {"path_patterns": ["docs/*/*.md"]}},
            "narrow": {**base, "trigger": {"path_patterns": ["docs/api/*.md"]}},
            "second_equal": {**base, "trigger": {"path_patterns": ["docs/*/*.md"]}},
        }
    }
    registry = load_templates(write(tmp_path, data))
    names = [t.name for t in registry.match(observe(T.FILE_MODIFIED, "docs/api/x.md"), facts())]
    assert names == ["narrow", "first_equal", "second_equal", "broad"]
