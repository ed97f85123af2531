"""Which templates file is in force: the setting, the folder's own, or the shipped one.

In this order: ``templates_file`` in the settings (it always wins); the
watched root's ``.nous/templates.yaml`` (what ``nous templates init`` writes),
found without any setting; the shipped seed knowledge base.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from graph.settings import STATE_DIR

USER_TEMPLATES = f"{STATE_DIR}/templates.yaml"
"""Where a folder keeps its own templates, relative to the watched root."""


@dataclass(frozen=True, slots=True)
class TemplatesSource:
    """The templates file in force (``None``: the shipped one) and how it was found."""

    path: Path | None
    how: str


def templates_source(configured: Path | None, root: Path) -> TemplatesSource:
    """The templates file for ``root``: ``configured`` if set, else the root's own, else shipped."""
    if configured is not None:
        return TemplatesSource(configured.expanduser(), "the templates_file setting")
    own = root.expanduser() / USER_TEMPLATES
    if own.exists() or own.is_symlink():
        # A symlink or a folder here is still the user's file: loading it says what is wrong.
        return TemplatesSource(own, f"the watched folder's {USER_TEMPLATES}")
    return TemplatesSource(None, "shipped with Nous (the seed knowledge base)")
