"""The replay's history: a project's released versions as trees of files, and upgrades.

A release comes from PyPI as its source distribution (``pip download
--no-deps --no-binary :all: NAME==VERSION``), kept in a cache folder outside
the repository and unpacked there once. An upgrade writes one version's
files over the watched root as an installer would: files that are new are
added, files whose bytes differ are rewritten, files the new version no
longer has are deleted. Paths the watcher ignores are left out of both, so
every change counted is one the daemon should observe.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

Tree = Mapping[str, Path]
"""A version's files: path relative to the project's top folder -> the file in the cache."""


@dataclass(frozen=True)
class Change:
    """One file changed by an upgrade: ``created``, ``modified`` or ``deleted``."""

    version: str
    path: str
    kind: str


class ReleaseError(RuntimeError):
    """A release could not be downloaded or unpacked (names the project and version)."""


def fetch_release(project: str, version: str, cache: Path) -> Path:
    """The unpacked top folder of ``project==version``'s sdist, downloaded into ``cache`` once."""
    unpacked = cache / "unpacked" / f"{project}-{version}"
    if unpacked.is_dir() and any(unpacked.iterdir()):
        return _top_folder(unpacked)
    downloads = cache / "sdists"
    downloads.mkdir(parents=True, exist_ok=True)
    archive = _archive(downloads, project, version)
    if archive is None:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
        command += ["--dest", str(downloads), "--quiet", f"{project}=={version}"]
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
        archive = _archive(downloads, project, version)
        if done.returncode != 0 or archive is None:
            raise ReleaseError(f"{project}=={version}: pip download failed: {done.stderr[-500:]}")
    unpacked.mkdir(parents=True, exist_ok=True)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zipped:
            zipped.extractall(unpacked)
    else:
        with tarfile.open(archive) as tarred:
            tarred.extractall(unpacked, filter="data")  # no links out, no odd modes
    return _top_folder(unpacked)


def _archive(folder: Path, project: str, version: str) -> Path | None:
    stems = {f"{name}-{version}" for name in (project, project.replace("-", "_"))}
    for candidate in sorted(folder.iterdir()):
        for suffix in (".tar.gz", ".zip"):
            if candidate.name.endswith(suffix) and candidate.name[: -len(suffix)] in stems:
                return candidate
    return None


def _top_folder(unpacked: Path) -> Path:
    entries = [p for p in unpacked.iterdir()]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else unpacked


def version_tree(top: Path, ignored: Callable[[str], bool]) -> dict[str, Path]:
    """Every regular file under ``top`` that the watcher would not ignore, by relative path."""
    tree: dict[str, Path] = {}
    for path in sorted(top.rglob("*")):
        relative = path.relative_to(top).as_posix()
        if path.is_file() and not path.is_symlink() and not ignored(relative):
            tree[relative] = path
    return tree


def upgrade(root: Path, old: Tree, new: Tree, version: str) -> list[Change]:
    """Write ``new`` over ``root``, where ``old`` is on disk; the changes made, in order."""
    changes: list[Change] = []
    for relative, source in new.items():
        target = root / relative
        if relative not in old:
            kind = "created"
        elif _digest(old[relative]) != _digest(source):
            kind = "modified"
        else:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.read_bytes())
        changes.append(Change(version, relative, kind))
    for relative in old:
        if relative not in new:
            (root / relative).unlink()
            changes.append(Change(version, relative, "deleted"))
    return changes


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
