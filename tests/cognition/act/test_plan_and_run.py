"""Planning parameters, attribution with several executions, claude-flow with the stand-in npx."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from cognition.act.attribution import ActiveExecutions
from cognition.act.executors import ClaudeFlowExecutor, ExecutionRequest
from cognition.act.fillable import can_fill
from cognition.act.render import line_after, slugify
from cognition.act.templates import TemplateRegistry, instantiate, load_templates
from graph.models import Category, Observation, ObservationType
from graph.settings import ExecutorSettings

REPO = Path(__file__).resolve().parents[3]
NPX = REPO / "tests" / "bin" / "npx"


@pytest.fixture(scope="module")
def registry() -> TemplateRegistry:
    return load_templates()


def _intake(path: str = "_intake/ada.md") -> Observation:
    return Observation(
        agent_id="a", type=ObservationType.FILE_CREATED, category=Category.INTAKE, path=path
    )


def test_extraction_rules_fill_the_thinker(registry: TemplateRegistry) -> None:
    action = instantiate(
        registry.get("create_thinker"),
        _intake(),
        summary="s",
        key_facts=[],
        content_preview="# Inbox\n- New thinker: Ada Lovelace\n",
    )
    assert action.params["thinker_name"] == "Ada Lovelace"
    assert action.params["thinker_slug"] == "ada_lovelace"
    assert "knowledge/thinkers/ada_lovelace/" in action.prompt
    assert "knowledge/thinkers/**" in action.working_set and "_intake/ada.md" in action.working_set


def test_a_template_that_cannot_be_filled_is_not_offered_unless_a_reasoner_fills_it(
    registry: TemplateRegistry,
) -> None:
    thinker = registry.get("create_thinker")
    named = "create profile for: Hypatia\n"
    assert can_fill(thinker, _intake(), named, reasoner_supplies=False)
    assert not can_fill(thinker, _intake(), "create profile for\n", reasoner_supplies=False)
    assert can_fill(thinker, _intake(), "create profile for\n", reasoner_supplies=True)
    failed = Observation(agent_id="a", type=ObservationType.TASK_FAILED)
    assert not can_fill(registry.get("handle_failure"), failed, None, reasoner_supplies=True)


def test_line_after_and_slugify() -> None:
    assert line_after("x\n  * Philosopher:  Simone Weil \n", ["philosopher:"]) == "Simone Weil"
    assert line_after("new thinker:\n", ["new thinker:"]) is None
    assert slugify("Ada Lovelace") == "ada_lovelace"
    assert slugify("Søren Kierkegaard!") == "sren_kierkegaard"


def test_changes_belong_to_the_execution_whose_working_set_holds_them() -> None:
    clock = iter(range(1000))
    active = ActiveExecutions(grace_s=0.0, clock=lambda: float(next(clock)))
    obs = _intake
    thinker = active.running("thinker", ["knowledge/thinkers/**", "indices/**"])
    with thinker, active.running("index", ["indices/**"]):
        assert active.attribute(obs("knowledge/thinkers/ada/p.md")).caused_by == "thinker"
        # Both hold it: the latest started.
        assert active.attribute(obs("indices/thinkers.yaml")).caused_by == "index"
        # Neither holds it: a person's change, decided on like any other.
        assert active.attribute(obs("_intake/second.md")).caused_by is None


async def test_claude_flow_passes_the_task_and_never_skips_permissions(
    tmp_path: Path,
) -> None:
    log = tmp_path / "npx.jsonl"
    script = tmp_path / "npx.json"
    script.write_text(json.dumps({"edits": [{"path": "knowledge/out.md", "content": "x"}]}))
    command = ExecutorSettings().claude_flow_command
    assert "{prompt}" in command and "--no-auto-permissions" in command
    # Even a command that leaves the flag out gets it while --claude is there.
    command = [str(NPX), *[a for a in command[1:] if a != "--no-auto-permissions"]]
    settings = ExecutorSettings(claude_flow_command=command)
    env = {"PATH": "/usr/bin:/bin", "FAKE_NPX_LOG": str(log), "FAKE_NPX_SCRIPT": str(script)}
    request = ExecutionRequest(
        execution_id=str(uuid.uuid4()),
        prompt="Research the topic of gifts",
        root=tmp_path,
        topology="mesh",
        strategy="research",
    )
    result = await ClaudeFlowExecutor(settings, env=env).execute(request)
    assert result.success, result.error
    assert result.output.startswith("swarm finished: Research the topic")
    [run] = [json.loads(line) for line in log.read_text().splitlines()]
    assert run["argv"][1:3] == ["swarm", "Research the topic of gifts"]
    assert run["argv"][run["argv"].index("--mode") + 1] == "mesh"
    assert run["skips_permissions"] is False
    assert (tmp_path / "knowledge" / "out.md").exists()


async def test_claude_flow_reads_an_error_result_and_refuses_a_command_without_the_task(
    tmp_path: Path,
) -> None:
    script = tmp_path / "npx.json"
    script.write_text(json.dumps({"is_error": True, "result": "swarm could not start"}))
    command = [str(NPX), *ExecutorSettings().claude_flow_command[1:]]
    env = {"PATH": "/usr/bin:/bin", "FAKE_NPX_SCRIPT": str(script)}
    request = ExecutionRequest(execution_id=str(uuid.uuid4()), prompt="p", root=tmp_path)
    result = await ClaudeFlowExecutor(
        ExecutorSettings(claude_flow_command=command), env=env
    ).execute(request)
    assert not result.success and "swarm could not start" in (result.error or "")
    no_task = ExecutorSettings(claude_flow_command=[str(NPX), "claude-flow@alpha", "swarm"])
    refused = await ClaudeFlowExecutor(no_task, env=env).execute(request)
    assert not refused.success and "{prompt}" in (refused.error or "")
