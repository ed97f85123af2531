"""Which project a root is: the setting, else the origin remote, else the folder's name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from graph.watch.project import project_of


def _repo(root: Path, config: str) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").write_text(config)
    return root


@pytest.mark.parametrize(
    ("url", "project"),
    [
        ("git@github.com:acme/retrier.git", "github.com/acme/retrier"),
        ("https://github.com/acme/retrier.git", "github.com/acme/retrier"),
        (
            "https://user:s3cr3t@gitlab.example.org:8443/team/retrier/",
            "gitlab.example.org/team/retrier",
        ),
        ("ssh://git@github.com/acme/retrier", "github.com/acme/retrier"),
    ],
)
def test_every_clone_of_one_remote_is_one_project(tmp_path: Path, url: str, project: str) -> None:
    config = (
        '[core]\n\tbare = false\n[remote "upstream"]\n\turl = x:y\n'
        f'[remote "origin"]\n\turl = {url}\n'
    )
    assert project_of(_repo(tmp_path / "clone", config)) == project


def test_the_setting_wins_and_no_remote_means_the_folder_name(tmp_path: Path) -> None:
    root = _repo(tmp_path / "retrier", "[core]\n\tbare = false\n")
    assert project_of(root) == "retrier"
    assert project_of(root, "team-retrier") == "team-retrier"
    assert project_of(tmp_path / "plain") == "plain"


def test_a_hostile_git_config_is_not_followed(tmp_path: Path) -> None:
    root = tmp_path / "linked"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").symlink_to("/etc/passwd")
    assert project_of(root) == "linked"
    fifo_root = tmp_path / "fifo"
    (fifo_root / ".git").mkdir(parents=True)
    os.mkfifo(fifo_root / ".git" / "config")
    assert project_of(fifo_root) == "fifo"
