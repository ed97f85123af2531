"""A git repository made in a test: commits with the files, messages and author given."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from graph.settings_lean import git_environment

EMAIL = "ann.dev@example.invalid"
"""Every test author's e-mail: memory must never keep it."""


def git(root: Path, *args: str, author: str = "Ann Dev", stdin: bytes = b"") -> str:
    """Run ``git`` in ``root`` as ``author``; what it printed."""
    env = {
        **git_environment(),
        "GIT_AUTHOR_NAME": author,
        "GIT_AUTHOR_EMAIL": EMAIL,
        "GIT_COMMITTER_NAME": author,
        "GIT_COMMITTER_EMAIL": EMAIL,
    }
    done = subprocess.run(
        ["git", "-C", str(root), *args],
        input=stdin,
        env=env,
        capture_output=True,
        check=True,
        timeout=30,
    )
    return done.stdout.decode("utf-8", "replace").strip()


def new_repo(root: Path) -> Path:
    """An empty repository at ``root`` (on branch main)."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    return root


def commit(
    root: Path, message: str, files: dict[str | bytes, str], *, author: str = "Ann Dev"
) -> str:
    """Write ``files`` (a name may be bytes: not UTF-8), commit them with ``message``; the sha."""
    for name, text in files.items():
        path = os.path.join(os.fsencode(root), os.fsencode(name))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-F", "-", author=author, stdin=message.encode())
    return git(root, "rev-parse", "HEAD")
