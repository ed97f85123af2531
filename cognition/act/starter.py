"""Starter packs: the templates file that fits the folder, chosen by looking at it.

Three packs ship as package data: the seed knowledge base (``templates.yaml``,
for a folder laid out as seed 000's: ``knowledge/``, ``_intake/``,
``indices/``), a notes vault (``packs/notes_vault.yaml``: Markdown,
Obsidian-style) and a code repository (``packs/code_repository.yaml``, with
the project's own commands filled in). :func:`choose_pack` looks at the folder
(bounded: a few thousand entries, no symlinks followed) and says which pack
and why; :func:`render_pack` fills the pack's ``@@name@@`` slots; the result
is checked like any templates file before it is written.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from cognition.act.toolchains import Toolchain, toolchain_for
from cognition.errors import CognitionError

PACKS: Mapping[str, str] = {
    "knowledge_base": "templates.yaml",
    "notes_vault": "packs/notes_vault.yaml",
    "code_repository": "packs/code_repository.yaml",
}
"""Each pack's name and its file beside this module."""

_SLOT = re.compile(r"@@([a-z_]+)@@")
# Folder and note names that go into a glob or a prompt must be plain.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}")
_INBOXES = ("inbox", "_inbox", "0 inbox", "00 inbox", "0-inbox", "00-inbox", "00_inbox")
_INDEXES = ("index.md", "Index.md", "00 Index.md", "Home.md", "README.md")
_SKIPPED = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".nous", "target"})
_MAX_ENTRIES = 5000
_MAX_DEPTH = 6
_MIN_NOTES = 3


class StarterError(CognitionError, ValueError):
    """No pack fits the folder, or a pack cannot be written; the message says why."""


@dataclass(frozen=True, slots=True)
class PackChoice:
    """The pack for a folder, why, and the values of its slots."""

    pack: str
    reason: str
    values: Mapping[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class _Survey:
    folders: set[str] = field(default_factory=set)
    files: int = 0
    markdown: int = 0


def choose_pack(root: Path, pack: str | None = None) -> PackChoice:
    """The pack that fits ``root`` (or the named ``pack``) and why; StarterError if none fits."""
    if pack is not None and pack not in PACKS:
        raise StarterError(f"no starter pack {pack!r} (known: {', '.join(PACKS)})")
    survey = _survey(root)
    seed_dirs = sorted(survey.folders & {"knowledge", "_intake", "_input", "indices"})
    chain = toolchain_for(root)
    seed_layout = "knowledge" in seed_dirs and len(seed_dirs) > 1
    if pack == "knowledge_base" or (pack is None and seed_layout):
        return PackChoice(
            "knowledge_base", "laid out as seed 000's: " + ", ".join(f"{d}/" for d in seed_dirs)
        )
    if pack == "code_repository" or (pack is None and chain is not None):
        if chain is None:
            raise StarterError(f"{root}: no pyproject.toml, package.json, go.mod or Cargo.toml")
        return _code_choice(chain)
    obsidian = ".obsidian" in survey.folders
    mostly_notes = survey.markdown >= _MIN_NOTES and survey.markdown * 2 >= survey.files
    if pack == "notes_vault" or obsidian or mostly_notes:
        why = "an Obsidian vault (.obsidian/)" if obsidian else "a notes folder"
        return _vault_choice(root, survey, f"{why}: {survey.markdown} of {survey.files} files .md")
    raise StarterError(
        f"{root}: no starter pack fits ({survey.files} files, {survey.markdown} Markdown; no"
        " knowledge/ with _intake/ or indices/, no project file, no .obsidian/);"
        f" choose one with --pack ({', '.join(PACKS)})"
    )


def render_pack(choice: PackChoice) -> str:
    """The pack's text with every ``@@name@@`` slot filled; StarterError names one left empty."""
    text = resources.files(__package__ or "cognition.act").joinpath(PACKS[choice.pack])
    body = text.read_text(encoding="utf-8")
    missing = sorted({name for name in _SLOT.findall(body) if name not in choice.values})
    if missing:
        raise StarterError(f"pack {choice.pack}: no value for {', '.join(missing)}")
    # Which pack and why, kept in the file: the reason holds no line break (names are plain).
    head = f"# `nous templates init` chose the {choice.pack} pack: {choice.reason}\n"
    return head + _SLOT.sub(lambda m: choice.values[m.group(1)], body)


def write_templates(path: Path, text: str, *, force: bool) -> Path | None:
    """Write ``text`` to ``path``; an existing file is refused, or with ``force`` kept as .bak.

    Returns the backup's path, if one was made.
    """
    backup = None
    if path.exists() or path.is_symlink():
        if not force:
            raise StarterError(f"{path} exists; --force replaces it (the old one kept as .bak)")
        if not path.is_file() or path.is_symlink():
            raise StarterError(f"{path} is not a regular file; not replacing it")
        backup = path.with_name(path.name + ".bak")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        if backup is not None:
            os.replace(path, backup)
        os.replace(partial, path)
    except OSError as exc:
        raise StarterError(f"{path}: cannot write it: {exc.strerror or exc}") from None
    return backup


def _code_choice(chain: Toolchain) -> PackChoice:
    docs = chain.docs_command or ["python3", "-m", "sphinx", "-b", "html", "-q", "docs", "_b"]
    values = {
        "language": chain.language,
        "test_command": json.dumps(chain.test_command),
        "test_file_command": json.dumps(chain.test_file_command),
        "test_file_globs": json.dumps(chain.test_file_globs),
        "test_outputs": json.dumps(chain.test_outputs),
        "code_extensions": json.dumps(chain.code_extensions),
        "code_not_suffixes": json.dumps(chain.code_not_suffixes),
        "dependency_globs": json.dumps(chain.dependency_globs),
        "dependency_command": json.dumps(chain.dependency_command or ["true"]),
        "dependency_enabled": json.dumps(chain.dependency_command is not None),
        "docs_globs": json.dumps(chain.docs_globs),
        "docs_command": json.dumps(docs),
        "docs_enabled": json.dumps(chain.docs_command is not None),
        "docs_outputs": json.dumps([".nous/docs-build/**"]),
        "tests_first": json.dumps(chain.tests_first),
    }
    tests = " ".join(chain.test_command)
    docs_note = f"docs: {chain.docs_tool}" if chain.docs_tool else "no docs builder found (off)"
    reason = f"a {chain.language} repository ({chain.marker}); tests: {tests}; {docs_note}"
    return PackChoice("code_repository", reason, values)


def _vault_choice(root: Path, survey: _Survey, reason: str) -> PackChoice:
    inbox = next((d for d in sorted(survey.folders) if d.lower() in _INBOXES), None)
    inbox_name = inbox if inbox is not None and _PLAIN_NAME.fullmatch(inbox) else "Inbox"
    index = next((n for n in _INDEXES if (root / n).is_file()), "index.md")
    where = f"inbox {inbox_name}/" + ("" if inbox else " (not there yet)")
    values = {
        "inbox": f"{inbox_name}/",
        "inbox_globs": json.dumps([f"{inbox_name}/**"]),
        "index": index,
        "index_text": index,
        "index_glob": json.dumps(index),
        "index_suffixes": json.dumps([index]),
    }
    return PackChoice("notes_vault", f"{reason}; {where}, index note {index}", values)


def _survey(root: Path) -> _Survey:
    """Top-level folders, and how many files (and Markdown files) there are, bounded."""
    survey = _Survey()
    if not root.is_dir():
        raise StarterError(f"{root} is not a folder")
    pending: list[tuple[Path, int]] = [(root, 0)]
    seen = 0
    while pending and seen < _MAX_ENTRIES:
        folder, depth = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries[: _MAX_ENTRIES - seen]:
            seen += 1
            if entry.is_dir(follow_symlinks=False):
                if depth == 0:
                    survey.folders.add(entry.name)
                if entry.name not in _SKIPPED and depth < _MAX_DEPTH:
                    pending.append((Path(entry.path), depth + 1))
            elif entry.is_file(follow_symlinks=False):
                survey.files += 1
                survey.markdown += entry.name.lower().endswith(".md")
    return survey
