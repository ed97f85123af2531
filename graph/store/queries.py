"""The one loader of Cypher: ``cypher/<area>/<name>.cypher``, loaded by name.

Every file holds one statement and starts with ``//`` comment lines:

    // purpose: what the statement does
    // params: $rows (list of maps ...), $agent_id
    // returns: what comes back (or "nothing")
    // mode: read            (optional; "write" when absent)

Values travel only as ``$parameters``. Nothing in Nous builds Cypher text
from data; the loader reads files and hands their text to the driver.

A statement may include a fragment: ``{{ fragments/recall_text }}`` is replaced,
when the file is loaded, by the body of ``cypher/fragments/recall_text.cypher``
(its comment lines dropped). A fragment is an expression or a run of clauses
written once and used by several statements (how a node becomes the text it is
recalled and embedded by; how an observation row is written); it is not a
statement, so :meth:`QueryLibrary.names` leaves fragments out.
Fragments do not include fragments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Literal

from graph.errors import QueryNotFoundError

CYPHER_PACKAGE = "cypher"
REQUIRED_HEADERS = ("purpose", "params", "returns")
FRAGMENTS = "fragments"  # the folder of fragments, included into statements, never run alone
_INCLUDE = re.compile(r"\{\{\s*([A-Za-z0-9_./-]+)\s*\}\}")


@dataclass(frozen=True)
class Query:
    """One Cypher statement and what its header says of it."""

    name: str
    text: str
    mode: Literal["read", "write"]
    headers: dict[str, str]
    path: Path


class QueryLibrary:
    """Cypher files under a root folder, read once and kept by name."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = shipped_cypher() if root is None else root
        self._cache: dict[str, Query] = {}

    def get(self, name: str) -> Query:
        """The query called ``name`` (``"observe/record_observations"``)."""
        cached = self._cache.get(name)
        if cached is not None:
            return cached
        if not _is_safe_name(name):
            raise QueryNotFoundError(f"not a query name: {name!r} (expected 'area/name')")
        if name.split("/")[0] == FRAGMENTS:
            raise QueryNotFoundError(f"{name!r} is a fragment, not a statement to run")
        path = self.root / f"{name}.cypher"
        if not path.is_file():
            raise QueryNotFoundError(f"no Cypher file for query {name!r} at {path}")
        query = parse_query(name, path)
        query = Query(
            name=query.name,
            text=self.include(query.text, path),
            mode=query.mode,
            headers=query.headers,
            path=path,
        )
        self._cache[name] = query
        return query

    def include(self, text: str, path: Path) -> str:
        """``text`` with every ``{{ fragments/name }}`` replaced by that fragment's body."""

        def body(match: re.Match[str]) -> str:
            name = match.group(1)
            if name.split("/")[0] != FRAGMENTS or not _is_safe_name(name):
                raise QueryNotFoundError(f"{path}: {name!r} is not a fragment (fragments/NAME)")
            fragment = self.root / f"{name}.cypher"
            if not fragment.is_file():
                raise QueryNotFoundError(f"{path}: no fragment {name!r} at {fragment}")
            lines = fragment.read_text(encoding="utf-8").splitlines()
            kept = [line for line in lines if not line.strip().startswith("//")]
            return "\n".join(kept).strip()

        return _INCLUDE.sub(body, text)

    def names(self, area: str | None = None) -> list[str]:
        """Every query name below the root (or in one area), sorted."""
        base = self.root if area is None else self.root / area
        found = (
            p.relative_to(self.root).with_suffix("").as_posix() for p in base.rglob("*.cypher")
        )
        return sorted(n for n in found if n.split("/")[0] != FRAGMENTS)


def shipped_cypher() -> Path:
    """The folder of the shipped ``cypher`` package (package data, wherever it is installed).

    The files are read with plain paths (``rglob``, error messages naming the file), so the
    package must be a folder on disk, which every wheel install and editable install is.
    Found by its import spec, not ``importlib.resources`` (whose import, zipfile and all,
    costs a hook process more than a bare interpreter's start: issue 27).
    """
    spec = find_spec(CYPHER_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise QueryNotFoundError(
            f"the {CYPHER_PACKAGE!r} package is not installed beside graph/ "
            "(reinstall Nous: pip install .)"
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    if not root.is_dir():
        raise QueryNotFoundError(
            f"the {CYPHER_PACKAGE!r} package at {root} is not a folder on disk "
            "(zipped installs are not supported)"
        )
    return root


def parse_query(name: str, path: Path) -> Query:
    """Read one ``.cypher`` file and its header."""
    text = path.read_text(encoding="utf-8")
    headers: dict[str, str] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("//"):
            break
        key, sep, value = stripped[2:].partition(":")
        if sep:
            headers[key.strip().lower()] = value.strip()
    mode = headers.get("mode", "write")
    if mode not in ("read", "write"):
        raise QueryNotFoundError(f"{path}: header 'mode' must be read or write, not {mode!r}")
    return Query(
        name=name,
        text=text,
        mode="read" if mode == "read" else "write",
        headers=headers,
        path=path,
    )


def _is_safe_name(name: str) -> bool:
    parts = name.split("/")
    return len(parts) >= 2 and all(p and p not in {".", ".."} and "\\" not in p for p in parts)
