"""Reading a YAML file Nous is given (settings, action templates) without being exhausted by it.

The one YAML reader for both files. A file must be a regular file (not a
FIFO that blocks, not ``/dev/zero`` that never ends) and at most
``max_bytes`` long; its YAML is parsed by a safe loader that refuses
aliases (an alias bomb expands a few lines into billions of nodes for
whoever walks them), refuses nesting deeper than :data:`MAX_DEPTH` (the
composer recurses) and refuses a key given twice in one mapping. Error
messages name the line and column but never quote the file, so a secret
beside a syntax error is not echoed.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from graph.errors import GraphError

MAX_YAML_BYTES = 1_000_000
MAX_DEPTH = 64

# O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused after fstat).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class YamlFileError(GraphError, ValueError):
    """A YAML file cannot be used; the message starts with the file's path."""


def read_text(path: Path, *, what: str, max_bytes: int = MAX_YAML_BYTES) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``max_bytes`` long.

    ``what`` names the file's role in messages ("settings file"). Raises
    :class:`YamlFileError` naming the file for anything else: missing,
    unreadable, not a regular file, too big, not UTF-8.
    """
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise YamlFileError(f"{path}: cannot read {what} ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(handle.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise YamlFileError(f"{path}: the {what} must be a regular file")
        if st.st_size > max_bytes:
            raise YamlFileError(f"{path}: the {what} is over {max_bytes} bytes")
        try:
            # One byte more than allowed tells a file that grew since fstat.
            data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise YamlFileError(f"{path}: cannot read {what} ({exc.strerror})") from None
    if len(data) > max_bytes:
        raise YamlFileError(f"{path}: the {what} is over {max_bytes} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlFileError(f"{path}: the {what} is not UTF-8 text ({exc.reason})") from None


def parse_yaml(text: str) -> Any:
    """Parse ``text`` safely: no aliases, no duplicate keys, at most :data:`MAX_DEPTH` deep.

    Raises :class:`yaml.YAMLError`; :func:`yaml_problem` describes it without quoting the text.
    """
    loader = _StrictLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def yaml_problem(exc: yaml.YAMLError) -> str:
    """What a YAML error says, with its line and column, and never a snippet of the text."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or exc.context or "not valid YAML"
        if mark is not None:
            return f"{what} (line {mark.line + 1}, column {mark.column + 1})"
        return what
    return type(exc).__name__


class _StrictLoader(yaml.SafeLoader):
    """A safe loader that refuses aliases, deep nesting and duplicate keys."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed", event.start_mark
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                event = self.peek_event()  # type: ignore[no-untyped-call]
                raise yaml.composer.ComposerError(
                    None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[object] = set()
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
            continue
        key = loader.construct_object(key_node)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def check_file(path: Path, *, what: str, max_bytes: int = MAX_YAML_BYTES) -> None:
    """Read and parse ``path`` as :func:`read_text` and :func:`parse_yaml` do, keeping nothing.

    The daemon checks the templates file this way before it imports the
    rest of Nous, so a hostile file is refused at once. Raises
    :class:`YamlFileError` naming the file.
    """
    text = read_text(path, what=what, max_bytes=max_bytes)
    try:
        parse_yaml(text)
    except yaml.YAMLError as exc:
        raise YamlFileError(f"{path}: not valid YAML: {yaml_problem(exc)}") from None
