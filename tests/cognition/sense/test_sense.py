"""The observation classifier: urgency, category and noise (seed 000)."""

from __future__ import annotations

from typing import Any

import pytest

from cognition.sense.classify import ObservationClassifier
from graph.models.observe import Category, ObservationType, Urgency
from graph.settings import SenseSettings
from tests.support.observations import C, T, U, obs


def sense_settings(**values: Any) -> SenseSettings:
    # model_validate, because mypy does not see SenseSettings' positional Field defaults.
    return SenseSettings.model_validate(values)


@pytest.fixture
def classifier() -> ObservationClassifier:
    return ObservationClassifier(sense_settings())


# ---------------------------------------------------------------- urgency

URGENCY_CASES = [
    # the seed's type rules
    (T.PROCESS_FAILED, None, {}, U.CRITICAL),
    (T.TASK_FAILED, None, {}, U.CRITICAL),
    (T.FILE_DELETED, "notes/a.md", {}, U.URGENT),
    (T.PROCESS_COMPLETED, None, {}, U.ROUTINE),
    (T.TASK_COMPLETED, None, {}, U.ROUTINE),
    (T.TIME_ELAPSED, None, {}, U.LOW),
    # intake folders, any case; inbox/ is intake by category but not urgent
    (T.FILE_CREATED, "_input/a.md", {}, U.URGENT),
    (T.FILE_MODIFIED, "projects/_INTAKE/x.txt", {}, U.URGENT),
    (T.FILE_CREATED, "inbox/a.md", {}, U.ROUTINE),
    # user-initiated
    (T.FILE_MODIFIED, "notes/a.md", {"user_initiated": True}, U.URGENT),
    (T.EXTERNAL_EVENT, None, {"user_initiated": True}, U.URGENT),
    (T.FILE_MODIFIED, "notes/a.md", {"user_initiated": False}, U.ROUTINE),
    # noise
    (T.FILE_MODIFIED, ".DS_Store", {}, U.NOISE),
    (T.FILE_CREATED, "src/__pycache__/m.cpython-311.pyc", {}, U.NOISE),
    (T.FILE_MODIFIED, "lib/m.pyc", {}, U.NOISE),
    (T.FILE_CREATED, "notes/.a.md.swp", {}, U.NOISE),
    (T.FILE_MODIFIED, "notes/a.md~", {}, U.NOISE),
    (T.FILE_MODIFIED, "web/node_modules/x/index.js", {}, U.NOISE),
    (T.FILE_MODIFIED, ".env.local", {}, U.NOISE),
    (T.FILE_MODIFIED, ".git/HEAD", {}, U.NOISE),
    (T.FILE_MOVED, "notes/a.md~", {"from_path": "notes/a.md"}, U.NOISE),
    # the deliberate deviation: file noise is checked before the type rules
    (T.FILE_DELETED, "notes/.a.md.swp", {}, U.NOISE),
    (T.FILE_DELETED, "poetry.lock", {}, U.NOISE),
    (T.FILE_CREATED, "_input/.draft.md.swp", {}, U.NOISE),
    (T.FILE_MODIFIED, "poetry.lock", {"user_initiated": True}, U.NOISE),
    # ...but not for processes and tasks: a failure stays critical
    (T.PROCESS_FAILED, "build.lock", {}, U.CRITICAL),
    (T.TIME_ELAPSED, ".git/x", {}, U.LOW),
    # other non-file observations with a noisy path are noise after the rules
    (T.EXTERNAL_EVENT, "node_modules/x.js", {}, U.NOISE),
    # the seed's noise match is case-sensitive
    (T.FILE_MODIFIED, "notes/.ds_store", {}, U.ROUTINE),
    # everything else
    (T.FILE_MODIFIED, "notes/a.md", {}, U.ROUTINE),
    (T.FILE_CREATED, "src/main.py", {}, U.ROUTINE),
    (T.SCHEDULE_TRIGGERED, None, {}, U.ROUTINE),
    (T.PROCESS_STARTED, None, {}, U.ROUTINE),
    (T.TASK_QUEUED, None, {}, U.ROUTINE),
]


@pytest.mark.parametrize(("type_", "path", "metadata", "expected"), URGENCY_CASES)
def test_urgency(
    classifier: ObservationClassifier,
    type_: ObservationType,
    path: str | None,
    metadata: dict[str, Any],
    expected: Urgency,
) -> None:
    assert classifier.classify(obs(type_, path, metadata=metadata)).urgency is expected


# ---------------------------------------------------------------- category

CATEGORY_CASES = [
    # by type, whatever the path
    (T.TASK_QUEUED, None, C.TASK_LIFECYCLE),
    (T.TASK_COMPLETED, None, C.TASK_LIFECYCLE),
    (T.TASK_FAILED, "docs/plan.md", C.TASK_LIFECYCLE),
    (T.PROCESS_STARTED, None, C.EXECUTION),
    (T.PROCESS_COMPLETED, None, C.EXECUTION),
    (T.PROCESS_FAILED, "docs/x.md", C.EXECUTION),
    # no path
    (T.TIME_ELAPSED, None, C.SYSTEM),
    (T.SCHEDULE_TRIGGERED, None, C.SYSTEM),
    (T.EXTERNAL_EVENT, None, C.SYSTEM),
    (T.FILE_DELETED, None, C.SYSTEM),
    # the seed's path table, one or more per category
    (T.FILE_CREATED, "_input/new.md", C.INTAKE),
    (T.FILE_CREATED, "a/_intake/b.pdf", C.INTAKE),
    (T.FILE_CREATED, "inbox/a.txt", C.INTAKE),
    (T.FILE_MODIFIED, "knowledge/a.md", C.KNOWLEDGE),
    (T.FILE_MODIFIED, "docs/guide.md", C.KNOWLEDGE),
    (T.FILE_MODIFIED, "Research/paper.pdf", C.KNOWLEDGE),
    (T.FILE_MODIFIED, "thinkers/kant.md", C.THINKER),
    (T.FILE_MODIFIED, "philosophers/hume.txt", C.THINKER),
    (T.FILE_MODIFIED, "indices/all.md", C.INDEX),
    (T.FILE_MODIFIED, "index.md", C.INDEX),
    (T.FILE_MODIFIED, "index.yaml", C.INDEX),  # index comes before config's ".yaml"
    (T.FILE_MODIFIED, "templates/t.md", C.TEMPLATE),
    (T.FILE_MODIFIED, ".claude/settings.local", C.CONFIG),
    (T.FILE_MODIFIED, "config/app.toml", C.CONFIG),
    (T.FILE_MODIFIED, "app/config/x.toml", C.CONFIG),
    (T.FILE_MODIFIED, "nous.yaml", C.CONFIG),
    (T.FILE_MODIFIED, "package.json", C.CONFIG),
    (T.FILE_MODIFIED, "CLAUDE.md", C.CONFIG),  # the seed never matched it
    (T.FILE_MODIFIED, "sub/claude.md", C.CONFIG),
    (T.FILE_MODIFIED, "consciousness/loop.py", C.SELF_REFERENCE),
    (T.FILE_MODIFIED, "decision-engine/x.py", C.SELF_REFERENCE),
    (T.FILE_MODIFIED, "orchestrator/run.sh", C.SELF_REFERENCE),
    # the mapping's order: the first category that matches wins
    (T.FILE_CREATED, "_input/templates/x.md", C.INTAKE),
    (T.FILE_MODIFIED, "docs/config/x.yaml", C.KNOWLEDGE),
    # plain substring, as in the seed
    (T.FILE_MODIFIED, "mydocs/a.py", C.KNOWLEDGE),
    (T.FILE_MODIFIED, "notes/a.yaml.bak", C.CONFIG),
    # the suffix fallback, then system
    (T.FILE_MODIFIED, "notes/a.md", C.KNOWLEDGE),
    (T.FILE_MODIFIED, "notes/A.TXT", C.KNOWLEDGE),
    (T.FILE_MODIFIED, "bin/tool.exe", C.SYSTEM),
    (T.FILE_MODIFIED, "notes/a.md.bak", C.SYSTEM),
    # issue 28: tests and code have categories of their own; .yml and .yaml are one
    (T.FILE_MODIFIED, "src/main.py", C.CODE),
    (T.FILE_MODIFIED, "sqlite_utils/db.py", C.CODE),
    (T.FILE_MODIFIED, "web/App.TSX", C.CODE),
    (T.FILE_MODIFIED, "tests/test_db.py", C.TEST),
    (T.FILE_MODIFIED, "pkg/sub/tests/helpers.py", C.TEST),
    (T.FILE_MODIFIED, "test_top.py", C.TEST),
    (T.FILE_MODIFIED, "pkg/db_test.go", C.TEST),
    (T.FILE_MODIFIED, "src/app.test.js", C.TEST),
    (T.FILE_MODIFIED, "tests/fixtures/data.yaml", C.TEST),
    (T.FILE_MODIFIED, "contests/score.py", C.CODE),  # "/tests/" is a folder, not a substring
    (T.FILE_MODIFIED, "latest/x.py", C.CODE),
    (T.FILE_MODIFIED, "src/data.json", C.CONFIG),  # "*.js" is a suffix, not a substring
    (T.FILE_MODIFIED, ".readthedocs.yaml", C.CONFIG),
    (T.FILE_MODIFIED, ".github/workflows/ci.yml", C.CONFIG),
    (T.FILE_MODIFIED, "mkdocs.yml", C.CONFIG),
    (T.FILE_MODIFIED, "pyproject.toml", C.CONFIG),
    (T.FILE_MODIFIED, "setup.cfg", C.CONFIG),
    (T.FILE_MODIFIED, "docs/conf.py", C.KNOWLEDGE),
    # other types with a path use the path table
    (T.EXTERNAL_EVENT, "templates/x.md", C.TEMPLATE),
]


@pytest.mark.parametrize(("type_", "path", "expected"), CATEGORY_CASES)
def test_category(
    classifier: ObservationClassifier,
    type_: ObservationType,
    path: str | None,
    expected: Category,
) -> None:
    assert classifier.classify(obs(type_, path)).category is expected


def test_the_suffix_fallback_still_applies_with_a_custom_table() -> None:
    classifier = ObservationClassifier(sense_settings(category_patterns={"config": ["etc/"]}))
    assert classifier.classify(obs(path="x.yaml")).category is C.KNOWLEDGE
    assert classifier.classify(obs(path="etc/x.yaml")).category is C.CONFIG
    assert classifier.classify(obs(path="docs/a.py")).category is C.SYSTEM
    assert classifier.classify(obs(path="x.yml")).category is C.KNOWLEDGE


@pytest.mark.parametrize(
    ("patterns", "expected"),
    [
        ({"config": ["shared/"], "knowledge": ["shared/"]}, C.CONFIG),
        ({"knowledge": ["shared/"], "config": ["shared/"]}, C.KNOWLEDGE),
        ({"learning": ["LESSONS/"]}, C.LEARNING),
    ],
)
def test_category_patterns_follow_the_settings_order_and_ignore_case(
    patterns: dict[str, list[str]], expected: Category
) -> None:
    classifier = ObservationClassifier(sense_settings(category_patterns=patterns))
    path = "Lessons/shared/a.py"
    assert classifier.classify(obs(path=path)).category is expected


def test_unknown_category_key_is_refused_by_name() -> None:
    settings = sense_settings(category_patterns={"knowledge": ["docs/"], "recipes": ["food/"]})
    with pytest.raises(ValueError, match="'recipes' is not a category"):
        ObservationClassifier(settings)


def test_empty_category_pattern_is_refused() -> None:
    with pytest.raises(ValueError, match=r"category_patterns\.config"):
        ObservationClassifier(sense_settings(category_patterns={"config": [""]}))


def test_noise_pattern_of_only_stars_is_refused() -> None:
    with pytest.raises(ValueError, match="noise_patterns"):
        ObservationClassifier(sense_settings(noise_patterns=["*.tmp", "**"]))


def test_noise_patterns_come_from_settings(classifier: ObservationClassifier) -> None:
    custom = ObservationClassifier(sense_settings(noise_patterns=["*.tmp"]))
    assert custom.is_noise(obs(path="a/b.tmp"))
    assert not custom.is_noise(obs(path=".DS_Store"))
    assert classifier.is_noise(obs(path=".DS_Store"))
    assert not classifier.is_noise(obs(path="a/b.tmp"))


def test_observation_without_path_is_never_noise(classifier: ObservationClassifier) -> None:
    assert not classifier.is_noise(obs(T.EXTERNAL_EVENT, None))


def test_classify_returns_a_copy_and_leaves_the_input_alone(
    classifier: ObservationClassifier,
) -> None:
    original = obs(T.FILE_CREATED, "_input/a.md", metadata={"size": 3})
    before = original.model_dump()

    result = classifier.classify(original)

    assert result is not original
    assert (result.urgency, result.category) == (U.URGENT, C.INTAKE)
    assert original.model_dump() == before
    assert result.model_dump(exclude={"urgency", "category"}) == original.model_dump(
        exclude={"urgency", "category"}
    )
    result.metadata["size"] = 4
    assert original.metadata == {"size": 3}


@pytest.mark.parametrize(
    "path",
    [
        "_intake/title~v2.md",
        "notes/swp/a.md",
        "notes/a.lockfile",
        "my.git/config.md",
        "node_modules_old/a.js",
        "docs/.DS_Store_notes.md",
    ],
)
def test_noise_patterns_match_names_not_substrings(
    classifier: ObservationClassifier, path: str
) -> None:
    assert not classifier.is_noise(obs(path=path))


@pytest.mark.parametrize(
    "path", ["foo.swp", "notes/foo~", "a/.DS_Store", "yarn.lock", "a/.git/HEAD", "x/y.pyc"]
)
def test_noise_patterns_still_match_their_names(
    classifier: ObservationClassifier, path: str
) -> None:
    assert classifier.is_noise(obs(path=path))
