"""The typed rows the stores return: one frozen dataclass per Cypher statement that returns rows.

A store turns each record into one of these before it leaves :mod:`graph.store`,
so callers read attributes that mypy checks rather than string keys that only
fail when they run. Standard-library dataclasses, not pydantic models: the
Claude Code hook path reads some of them and must not load pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

R = TypeVar("R")
"""A typed row class."""


def from_stored(row: type[R], properties: Mapping[str, Any]) -> R:
    """A row from a node's stored properties: those the row names (missing or null: its default).

    Properties the row does not name (written by a newer version, or kept for
    an index such as ``text``) are left out, as :func:`graph.store.mapping.from_properties`
    leaves them out of a model.
    """
    names = {f.name for f in fields(row)}  # type: ignore[arg-type]
    return row(**{k: v for k, v in properties.items() if k in names and v is not None})
