"""Success criteria: declarative checks over the root after a run, never outside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from cognition.act.criteria import Criterion, snapshot, validate


def _c(**check: object) -> Criterion:
    return Criterion.model_validate(check)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    base = tmp_path / "root"
    (base / "knowledge" / "thinkers" / "ada").mkdir(parents=True)
    (base / "knowledge" / "thinkers" / "ada" / "profile.md").write_text(
        "# Ada\nanalytical engine\n"
    )
    (base / "indices").mkdir()
    (base / "indices" / "thinkers.yaml").write_text("thinkers: [ada]\n")
    (base / "indices" / "broken.json").write_text("{not json")
    return base


def test_each_kind_of_check(root: Path) -> None:
    params = {"slug": "ada"}
    checks = [
        _c(exists="knowledge/thinkers/{{ slug }}/*.md"),
        _c(contains={"path": "knowledge/**/*.md", "text": "analytical engine"}),
        _c(parses={"path": "indices/*.yaml", "as": "yaml"}),
        _c(max_size={"path": "indices/**", "bytes": 1000}),
    ]
    before = snapshot(root, checks, params)
    passed, report = validate(root, checks, params, before)
    assert passed, report
    assert report.count("PASS") == 4

    failing = [
        _c(exists="knowledge/thinkers/kant/*.md"),
        _c(contains={"path": "knowledge/**/*.md", "text": "critique"}),
        _c(parses={"path": "indices/*.json", "as": "json"}),
        _c(max_size={"path": "indices/**", "bytes": 5}),
    ]
    passed, report = validate(root, failing, params, snapshot(root, failing, params))
    assert not passed and report.count("FAIL") == 4


def test_changed_compares_with_the_snapshot_before_the_run(root: Path) -> None:
    checks = [_c(changed="knowledge/thinkers/{{ slug }}/**")]
    params = {"slug": "ada"}
    before = snapshot(root, checks, params)
    assert not validate(root, checks, params, before)[0]  # nothing happened
    (root / "knowledge" / "thinkers" / "ada" / "notes.md").write_text("new\n")
    assert validate(root, checks, params, before)[0]


@pytest.mark.parametrize("glob", ["../outside/*.md", "/etc/*", "knowledge/../../x"])
def test_paths_outside_the_root_are_refused(root: Path, glob: str) -> None:
    (root.parent / "outside").mkdir()
    (root.parent / "outside" / "secret.md").write_text("secret\n")
    checks = [_c(exists=glob)]
    passed, report = validate(root, checks, {}, snapshot(root, checks, {}))
    assert not passed and "FAIL" in report


def test_a_symlink_out_of_the_root_is_not_followed(root: Path) -> None:
    outside = root.parent / "elsewhere"
    outside.mkdir()
    (outside / "x.md").write_text("analytical engine\n")
    os.symlink(outside, root / "link")
    checks = [_c(contains={"path": "link/*.md", "text": "analytical"})]
    assert not validate(root, checks, {}, snapshot(root, checks, {}))[0]


def test_a_placeholder_without_a_value_fails_the_check(root: Path) -> None:
    checks = [_c(exists="knowledge/thinkers/{{ slug }}/*.md")]
    passed, report = validate(root, checks, {}, snapshot(root, checks, {}))
    assert not passed and "no value" in report


def test_a_criterion_has_exactly_one_kind() -> None:
    with pytest.raises(ValidationError, match="exactly one"):
        _c(exists="a", changed="b")
    with pytest.raises(ValidationError, match="exactly one"):
        _c()
    with pytest.raises(ValidationError):
        _c(parses={"path": "a", "as": "toml"})
