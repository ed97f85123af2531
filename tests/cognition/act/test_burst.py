"""A burst is one run: what would run one command is held until it settles, then joined."""

from __future__ import annotations

from datetime import timedelta

from cognition.act.action import PlannedAction
from cognition.act.burst import widen
from cognition.act.command import ARGV_PARAM
from cognition.act.templates import parse_templates
from cognition.sense.classify import ObservationClassifier
from cognition.worklist import Work, join_bursts
from graph.models import ActionTarget, Observation, ObservationType, utc_now
from graph.settings import SenseSettings

T = ObservationType
CLASSIFIER = ObservationClassifier(SenseSettings())
TEMPLATES = parse_templates(
    """
templates:
  run_changed_tests:
    version: 1
    title: run_changed_tests
    description: run_changed_tests
    trigger: {observation_category: test, path_patterns: ["tests/**"]}
    target: command
    command: ["python3", "-m", "pytest", "-q", "{{ path }}"]
    prompt_template: "Run {{ path }}"
    parameters: {path: {type: path, required: true}}
  run_suite:
    version: 1
    title: run_suite
    description: run_suite
    trigger: {observation_category: code, observation_types: [file_modified, file_deleted]}
    target: command
    command: ["python3", "-m", "pytest", "-q"]
    prompt_template: "Code changed: {{ path }}"
    parameters: {path: {type: path, required: true}}
  tidy_notes:
    version: 1
    title: tidy_notes
    description: tidy_notes
    trigger: {path_patterns: ["notes/**"]}
    target: claude_code
    prompt_template: "Tidy {{ path }}"
    parameters: {path: {type: path, required: true}}
""",
    "test.yaml",
)


def _change(path: str, kind: ObservationType = T.FILE_MODIFIED, age_s: float = 10) -> Work:
    at = utc_now() - timedelta(seconds=age_s)
    observation = Observation(agent_id="t", type=kind, path=path, at=at)
    return Work([CLASSIFIER.classify(observation)])


def test_ten_code_files_saved_at_once_are_one_piece_of_work() -> None:
    work = [_change(f"pkg/m{n}.py") for n in range(10)] + [_change("notes/a.md")]
    bursts = join_bursts(work, TEMPLATES, settle_s=2.0)
    assert bursts.held == {}
    assert [item.batch[0].path for item in bursts.work] == ["notes/a.md"]  # not a command
    suite = bursts.runs["run_suite"]
    assert {o.path for o in suite.batch} == {f"pkg/m{n}.py" for n in range(10)}


def test_a_burst_is_held_until_its_last_change_settles() -> None:
    work = [_change("pkg/a.py", age_s=10), _change("pkg/b.py", age_s=0.5), _change("notes/a.md")]
    bursts = join_bursts(work, TEMPLATES, settle_s=2.0)
    assert [item.batch[0].path for item in bursts.work] == ["notes/a.md"]
    assert bursts.runs == {}
    assert {o.path for item in bursts.held["run_suite"] for o in item.batch} == {
        "pkg/a.py",
        "pkg/b.py",
    }
    assert join_bursts(work, TEMPLATES, settle_s=0.0).held == {}


def test_the_test_files_of_a_burst_run_in_one_command() -> None:
    batch = [o for n in range(3) for o in _change(f"tests/test_{n}.py").batch]
    batch.append(_change("tests/test_gone.py", T.FILE_DELETED).batch[0])
    batch.append(_change("tests/-odd.py").batch[0])
    planned = PlannedAction(
        target=ActionTarget.COMMAND,
        prompt="Run tests/test_0.py",
        template="run_changed_tests",
        params={ARGV_PARAM: ["python3", "-m", "pytest", "-q", "tests/test_0.py"], "path": "x"},
        working_set=("tests/test_0.py",),
    )
    wide = widen(planned, batch, TEMPLATES)
    assert wide is not None
    assert wide.params[ARGV_PARAM] == [
        "python3", "-m", "pytest", "-q",
        "tests/test_0.py", "tests/test_1.py", "tests/test_2.py", "tests/-odd.py",
    ]  # fmt: skip
    assert "One run for 5 files changed together: tests/test_0.py, tests/test_1.py" in wide.prompt
    assert "tests/test_gone.py" in wide.prompt and wide.working_set == planned.working_set
    # One file: the action as planned.
    assert widen(planned, batch[:1], TEMPLATES) is planned
