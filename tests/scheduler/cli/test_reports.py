"""``nous calibration``, ``nous audit`` and ``nous why`` on a seeded memory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.models import DecisionType
from graph.store.memory import Memory
from graph.store.queries import QueryLibrary
from scheduler.story import path_candidates
from tests.scheduler.cli.conftest import Nous
from tests.support.recall_seed import Seeder
from tests.support.story_seed import PATH, write_story


async def test_calibration_reports_each_bucket_and_its_verdict(
    nous: Nous, memory: Memory, seeder: Seeder
) -> None:
    empty = await nous("calibration")
    assert empty.code == 0 and "no decision has been learned from yet" in empty.out
    # Four decisions at confidence 0.85 of which one succeeded: confidence over-promises.
    for n, success in enumerate((True, False, False, False)):
        decision_id = await seeder.decision(f"k/{n}.md", confidence=0.85, minutes=n)
        await memory.learning.record_outcome(decision_id, success=success, confidence=0.85)
    report = await nous("calibration", "--json")
    rows = {r["bucket"]: r for r in json.loads(report.out)}
    assert rows["0.8-0.9"]["decisions"] == 4
    assert rows["0.8-0.9"]["successes"] == 1
    assert rows["0.8-0.9"]["success_rate"] == 0.25
    assert rows["0.8-0.9"]["verdict"] == "over-promises"
    assert rows["0.1-0.2"]["decisions"] == 0
    text = (await nous("calibration")).out
    assert "0.8-0.9" in text and "over-promises" in text


async def test_audit_lists_every_file_and_runs_one(nous: Nous, seeder: Seeder) -> None:
    listed = await nous("audit")
    assert listed.code == 0
    library = QueryLibrary()
    for name in library.names("audit"):
        short = name.split("/", 1)[1]
        purpose = " ".join(library.get(name).headers["purpose"].split())
        assert f"{short}\n    {purpose}" in listed.out

    first = await seeder.decision("a.md", minutes=1)
    await seeder.decision("b.md", minutes=2)
    ran = await nous("audit", "recent_decisions", "--param", "limit=1", "--json")
    assert ran.code == 0, ran.err
    assert [r["path"] for r in json.loads(ran.out)] == ["b.md"]
    steps = await nous("audit", "decision_links", "--param", f"decision_id={first}")
    assert steps.code == 0 and "no rows" in steps.out

    missing = await nous("audit", "decision_steps")
    assert missing.code == 2 and "--param decision_id=" in missing.err
    unknown = await nous("audit", "nothing_here")
    assert unknown.code == 2 and "recent_decisions" in unknown.err
    bad = await nous("audit", "recent_decisions", "--param", "limit")
    assert bad.code == 2 and "key=value" in bad.err


async def test_why_tells_the_whole_story_of_an_acted_retried_decision(
    nous: Nous, seeder: Seeder
) -> None:
    story = await write_story(seeder)
    result = await nous("why", story.decision_id)
    assert result.code == 0, result.err
    out = result.out
    expected = [
        f"decision {story.decision_id}: ACT at confidence 0.82 (raw 0.78), rules",
        "considered 1 observation(s)",
        f"file_modified {PATH}",
        "frame maintenance",
        "recall showed 1 past decision(s)",
        "pattern knowledge:file_modified:act:analyze_knowledge (0/0 succeeded)",
        "reasoning: 5 steps",
        *(
            f"{i}. {name} [rules]"
            for i, name in enumerate(
                ["OBSERVE", "CATEGORIZE", "MATCH_PATTERN", "EVALUATE", "DECIDE"], start=1
            )
        ),
        "Δ +0.05",
        "step evaluate reasoning",
        "template analyze_knowledge v1 → claude_code",
        "parameters/prompt: Update the index for knowledge/notes.md",
        "executions: 2",
        "attempt 1: claude_code → failed · failure transient · verdict retry",
        "error: rate limited",
        "attempt 2 (retry of attempt 1): claude_code → succeeded",
        "outcome succeeded: index updated",
        "lessons: 1",
        "retry_succeeded: succeeded on the second attempt",
        "censors it filed or fired: 1",
        f"{story.censor_id} (warn, active): analyze_knowledge on knowledge/*.md: rate limited",
        "stopped by censor: none",
        "escalations: 0",
        "heuristics applied: 1",
        f"{story.heuristic_id} [writing]: Index notes by their first heading",
    ]
    for line in expected:
        assert line in out, f"{line!r} not in:\n{out}"
    assert max(len(line) for line in out.splitlines()) <= 100

    by_path = await nous("why", PATH, "--json")
    assert json.loads(by_path.out)["decision"]["id"] == story.decision_id
    missing = await nous("why", "nowhere/at-all.md")
    assert missing.code == 1 and "no decision" in missing.err


async def test_why_names_the_censor_that_stopped_a_decision(nous: Nous, seeder: Seeder) -> None:
    why = "blocked by censor: analyze_knowledge on k/*.md (permission denied)"
    decision_id = await seeder.decision(
        "k/a.md", type=DecisionType.ESCALATE, template=None, reasoning=f"would act; {why}"
    )
    result = await nous("why", decision_id)
    assert "stopped by censor: analyze_knowledge on k/*.md (permission denied)" in result.out
    assert "executions: 0" in result.out and "outcome -" in result.out


async def test_why_takes_a_path_relative_to_the_current_folder_or_the_root(
    nous: Nous, seeder: Seeder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    story = await write_story(seeder)  # a decision about knowledge/notes.md
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "knowledge").mkdir(parents=True)
    (root / "docs").mkdir()
    outside.mkdir()
    asked = {
        root / "knowledge": ["notes.md", "./notes.md", str(root / PATH)],
        root / "docs": ["../knowledge/notes.md", PATH],
        root: [PATH, f"./{PATH}"],
        outside: [PATH],  # relative to the root: the current folder lies outside it
    }
    for cwd, targets in asked.items():
        monkeypatch.chdir(cwd)
        for target in targets:
            found = await nous("why", target, "--root", str(root), "--json")
            assert found.code == 0, (cwd, target, found.err)
            assert json.loads(found.out)["decision"]["id"] == story.decision_id, (cwd, target)
    monkeypatch.chdir(outside)
    away = await nous("why", "../outside/notes.md", "--root", str(root))
    assert away.code == 1 and "outside the watched root" in away.err, away.err
    monkeypatch.chdir(root / "docs")
    wrong = await nous("why", "notes.md", "--root", str(root))
    assert wrong.code == 1 and "tried docs/notes.md, notes.md under" in wrong.err, wrong.err


def test_path_candidates_stay_inside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "a").mkdir(parents=True)
    assert path_candidates("x.md", root, root / "a") == ["a/x.md", "x.md"]
    assert path_candidates("x.md", root, root) == ["x.md"]
    assert path_candidates("../../etc/passwd", root, root / "a") == []
    assert path_candidates("/etc/passwd", root, root) == []
    assert path_candidates(".", root, root) == []
    assert path_candidates("a/../../x", root, tmp_path) == []
    assert path_candidates(".github/ci.yml", root, root) == [".github/ci.yml"]
