"""Pure helpers about the paths of watched files: no graph, no I/O."""

from __future__ import annotations

from graph.ids import file_id as file_id  # its home: made without pydantic


def path_pattern(path: str | None) -> str | None:
    """The folder and extension of a path, as recall groups files (``docs/*.md``)."""
    if not path:
        return None
    folder, _, name = path.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    suffix = f"*.{ext}" if dot and stem else "*"
    return f"{folder}/{suffix}" if folder else suffix
