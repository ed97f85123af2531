"""Whether a templates file may run commands: the user trusted it, by its hash, outside the folder.

A folder can carry its own ``.nous/templates.yaml`` (a cloned repository),
and a template's command runs as the user. As direnv asks before it runs a
folder's ``.envrc``, Nous runs no command from a templates file that lies in
the watched folder until the user has trusted it (``nous templates trust``),
and again after it changes: what is recorded is the file's SHA-256, keyed by
its resolved path, in a file of the user's state (``trust_dir``, by default
``$XDG_STATE_HOME/nous`` or ``~/.local/state/nous``), never inside the
watched folder, where the folder could carry its own.

Trusted without asking: the templates shipped inside Nous (the starter pack
and the seed knowledge base) and a ``templates_file`` the settings name
outside the watched folder (the user chose it). ``nous templates init``
trusts what it writes.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from cognition.errors import CognitionError
from graph.yamlfile import YamlFileError, read_text

if TYPE_CHECKING:
    from graph.settings import Settings

TRUST_FILE = "trusted-templates.json"


class TrustError(CognitionError):
    """The trust record cannot be read or written, or would lie inside the watched folder."""


@dataclass(frozen=True)
class TemplatesTrust:
    """Whether the templates file in force may run commands, and why (or why not)."""

    trusted: bool
    path: Path | None  # None: the templates shipped with Nous
    why: str
    digest: str | None = None  # the file's SHA-256 as read now

    def trust_command(self, root: Path) -> str:
        """The command that trusts this file for ``root``."""
        return f"nous templates trust --root {root}"


def needs_trust(path: Path | None, root: Path) -> bool:
    """Whether ``path`` is a file the watched folder carries (as named or as resolved)."""
    if path is None:
        return False
    base = root.expanduser().absolute()
    named = path.expanduser().absolute()
    return named.is_relative_to(base) or named.resolve().is_relative_to(base.resolve())


def digest(path: Path) -> str:
    """The SHA-256 of the templates file, read as the daemon reads it; :class:`TrustError`."""
    try:
        text = read_text(path, what="templates file")
    except YamlFileError as exc:
        raise TrustError(str(exc)) from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class TrustStore:
    """The user's record of trusted templates files: ``trust_dir/trusted-templates.json``."""

    def __init__(self, trust_dir: Path | None, root: Path) -> None:
        """``trust_dir`` None (settings built by hand) trusts nothing that needs trust."""
        self.root = root
        self.file = None if trust_dir is None else trust_dir.expanduser() / TRUST_FILE

    def verdict(self, path: Path | None) -> TemplatesTrust:
        """Whether ``path`` (None: the shipped templates) may run commands now."""
        if path is None:
            return TemplatesTrust(True, None, "shipped with Nous")
        if not needs_trust(path, self.root):
            return TemplatesTrust(True, path, "named in the settings, outside the watched folder")
        try:
            text = read_text(path, what="templates file")
        except YamlFileError as exc:
            return TemplatesTrust(False, path, str(exc))
        return self.verdict_of(path, text)

    def verdict_of(self, path: Path, text: str) -> TemplatesTrust:
        """Whether ``text``, read from ``path`` (a file the folder carries), may run commands:
        the daemon hashes the very text it parses, so what runs is what was trusted."""
        found = hashlib.sha256(text.encode("utf-8")).hexdigest()
        try:
            record = self._records().get(_key(path))
        except TrustError as exc:
            return TemplatesTrust(False, path, str(exc))
        if record is None:
            return TemplatesTrust(False, path, "never trusted", found)
        if record.get("sha256") != found:
            when = record.get("trusted_at", "?")
            return TemplatesTrust(False, path, f"changed since it was trusted ({when})", found)
        return TemplatesTrust(True, path, f"trusted {record.get('trusted_at', '?')}", found)

    def trust(self, path: Path) -> TemplatesTrust:
        """Record ``path``'s hash as trusted now; :class:`TrustError` naming what is wrong."""
        found = digest(path)
        records = self._records()
        now = datetime.now(UTC).isoformat(timespec="seconds")
        records[_key(path)] = {"sha256": found, "trusted_at": now}
        self._write(records)
        return TemplatesTrust(True, path, f"trusted {now}", found)

    def _checked_file(self) -> Path:
        if self.file is None:
            raise TrustError("no trust_dir in the settings: nothing can be trusted")
        where = self.file.absolute()
        if where.is_relative_to(self.root.absolute()) or where.resolve().is_relative_to(
            self.root.resolve()
        ):
            raise TrustError(
                f"trust_dir: {self.file.parent} lies inside the watched folder {self.root};"
                " a folder could carry its own trust: choose one outside it"
            )
        return where

    def _records(self) -> dict[str, dict[str, str]]:
        where = self._checked_file()
        try:
            data = json.loads(where.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise TrustError(f"{where}: the trust record cannot be read ({exc})") from None
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, dict):
            raise TrustError(f"{where}: the trust record has no 'files' mapping")
        return {str(k): v for k, v in files.items() if isinstance(v, dict)}

    def _write(self, records: dict[str, dict[str, str]]) -> None:
        where = self._checked_file()
        try:
            where.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, fresh = tempfile.mkstemp(prefix=f"{where.name}.", dir=where.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"files": records}, out, indent=1, sort_keys=True)
                out.flush()
                os.fsync(out.fileno())
            os.replace(fresh, where)  # whole or not at all
        except OSError as exc:
            raise TrustError(f"{where}: the trust record cannot be written ({exc})") from None


def trust_store(settings: Settings, root: Path) -> TrustStore:
    """The user's trust record for ``root`` where ``settings`` keep it: the one place a
    :class:`TrustStore` is built (the daemon's start and the ``nous`` commands alike)."""
    return TrustStore(settings.trust_dir, root)


def templates_verdict(settings: Settings, root: Path) -> TemplatesTrust:
    """Whether the templates file in force for ``root`` may run commands now (its ``path``
    None: the templates shipped with Nous)."""
    from cognition.act.locate import templates_source

    return trust_store(settings, root).verdict(templates_source(settings.templates_file, root).path)


def _key(path: Path) -> str:
    """A file is known by where it really lies: a link swapped to another file is another."""
    return str(path.expanduser().resolve())
