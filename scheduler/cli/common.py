"""What every ``nous`` subcommand shares: options, settings, the memory, tables and exit codes.

A subcommand module offers ``register(commands)``, which adds its parser and
sets ``handler`` to a function ``(args) -> int``; handlers that need the
graph are ``async (args, memory) -> int`` and run through :func:`with_memory`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, is_dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from graph.errors import GraphError, MemoryUnavailableError, Neo4jNotFoundError, SettingsError
from graph.settings import Settings, child_environment, load_settings
from scheduler.cells import cell

if TYPE_CHECKING:  # the driver's import is slow; `--help` and `nous run` need none of it
    from graph.store.memory import Memory

EXIT_OK, EXIT_NOT_FOUND, EXIT_USAGE = 0, 1, 2
TABLE_WIDTH = 100
"""Tables fit a terminal this wide: the widest column is cut to fit."""

MemoryHandler = Callable[[argparse.Namespace, "Memory"], Awaitable[int]]


class CommandError(Exception):
    """A failure a subcommand reports as ``nous: <message>`` with its exit code."""

    def __init__(self, message: str, code: int = EXIT_NOT_FOUND) -> None:
        super().__init__(message)
        self.code = code


def common_options(*, prints_data: bool = True, root: bool = False) -> argparse.ArgumentParser:
    """The options every command takes: ``--config``, ``--agent-id`` (``--json``, ``--root``).

    The one declaration of them: ``nous``'s subcommands, ``nous rsi`` and
    the daemon (``nous run``, ``python -m graph.daemon``) all take these.
    """
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="settings file (default: nous.yaml in the current folder, if there is one)",
    )
    parent.add_argument("--agent-id", help="the agent in the graph (default: agent_id, else nous)")
    if root:
        parent.add_argument(
            "--root",
            type=Path,
            help="the watched folder (default: watch.root in the settings, else here)",
        )
    if prints_data:
        parent.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parent


# Options that override one settings key each, when the command has them.
_OVERRIDES = (
    ("root", "watch.root"),
    ("agent_id", "agent_id"),
    ("log_level", "log_level"),
    ("dry_run", "executors.dry_run"),
)


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings named by ``--config`` with the command line's overrides; exit 2 when bad.

    ``--root``, ``--agent-id``, ``--log-level`` and ``--dry-run`` override
    their keys where the command takes them and they were given.
    """
    overrides: dict[str, Any] = {}
    for option, key in _OVERRIDES:
        value = getattr(args, option, None)
        if value:
            overrides[key] = str(value) if isinstance(value, Path) else value
    try:
        return load_settings(getattr(args, "config", None), overrides=overrides)
    except SettingsError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None


def with_memory(handler: MemoryHandler) -> Callable[[argparse.Namespace], int]:
    """Wrap an async handler: find the running Neo4j (never start one), hand it the memory."""

    def run(args: argparse.Namespace) -> int:
        settings = settings_from(args)
        return asyncio.run(_with_memory(handler, args, settings))

    return run


async def _with_memory(handler: MemoryHandler, args: argparse.Namespace, settings: Settings) -> int:
    # Imported here: the composition root loads all of cognition, which `--help`,
    # a settings error and `nous run` must not wait for.
    from scheduler.compose.connect import connected

    args.settings = settings
    try:
        async with connected(settings, child_environment()) as parts:
            return await handler(args, parts.memory)
    except GraphError as exc:
        if isinstance(exc, MemoryUnavailableError | Neo4jNotFoundError):
            raise CommandError(f"{exc} (`nous neo4j start` starts one)") from None
        raise CommandError(str(exc)) from None


def plain(value: Any) -> Any:
    """A value as JSON can carry it (times as ISO text)."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if is_dataclass(value) and not isinstance(value, type):
        return plain(asdict(value))
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def print_json(data: Any, out: TextIO | None = None) -> None:
    """Data as indented JSON."""
    print(json.dumps(plain(data), indent=2, sort_keys=True), file=out or sys.stdout)


def _field(row: object, name: str) -> Any:
    """A column of a row: a mapping's key or a typed row's attribute (None when absent)."""
    return row.get(name) if isinstance(row, Mapping) else getattr(row, name, None)


def table(rows: Sequence[object], columns: Sequence[str], *, empty: str, wrap: bool = False) -> str:
    """Rows (a store's typed rows or mappings) as a text table no wider than :data:`TABLE_WIDTH`.

    ``empty`` when there are none. Long text is cut with "…"; with ``wrap``
    nothing is ever cut: a long cell goes on over the next lines, broken after
    a "/", space, "-" or "_", and a column is widened to its longest unbreakable
    piece (a time, an id).
    """
    if not rows:
        return empty
    cells = [[cell(_field(r, c)) for c in columns] for r in rows]
    if wrap:
        return _wrapped(list(columns), cells)
    widths = [max(len(c), *(len(line[i]) for line in cells)) for i, c in enumerate(columns)]
    # Ids are what a person copies into the next command: never cut them; cut text instead.
    cuttable = [i for i, c in enumerate(columns) if c != "id" and not c.endswith("_id")]
    while cuttable and sum(widths) + 2 * (len(widths) - 1) > TABLE_WIDTH:
        widest = max(cuttable, key=lambda i: widths[i])
        if widths[widest] <= 8:
            break
        widths[widest] -= 1
    lines = [_line(list(columns), widths), _line(["-" * w for w in widths], widths)]
    lines += [_line(line, widths) for line in cells]
    return "\n".join(lines)


def _line(values: list[str], widths: list[int]) -> str:
    parts = [_fit(v, w) for v, w in zip(values, widths, strict=True)]
    return "  ".join(parts).rstrip()


# Where a wrapped cell may break: after a path's "/" or a word's end; a name (not a path)
# also after "_".
_BREAK = re.compile(r"(?<=[/ -])")
_BREAK_NAME = re.compile(r"(?<=[/ _-])")


def _wrapped(columns: list[str], cells: list[list[str]]) -> str:
    # A time or an id is never broken; a path only after a "/", other text also after "_".
    whole = [c in {"id", "at"} or c.endswith(("_id", "_at")) for c in columns]
    breaks = [_BREAK if c == "path" or c.endswith("_path") else _BREAK_NAME for c in columns]
    pieces = [
        [[text] if whole[i] else breaks[i].split(text) for i, text in enumerate(line)]
        for line in cells
    ]
    widths = [max(len(c), *(len(line[i]) for line in cells)) for i, c in enumerate(columns)]
    least = [
        max(len(c), *(max(map(len, line[i])) for line in pieces)) for i, c in enumerate(columns)
    ]
    while sum(widths) + 2 * (len(widths) - 1) > TABLE_WIDTH:
        narrower = [i for i in range(len(widths)) if widths[i] > least[i]]
        if not narrower:
            break  # wider than the terminal rather than cut
        widths[max(narrower, key=lambda i: widths[i])] -= 1
    lines = [_line(columns, widths), _line(["-" * w for w in widths], widths)]
    for line in pieces:
        wrapped = [_pack(parts, w) for parts, w in zip(line, widths, strict=True)]
        for n in range(max(map(len, wrapped))):
            lines.append(_line([w[n] if n < len(w) else "" for w in wrapped], widths))
    return "\n".join(lines)


def _pack(parts: list[str], width: int) -> list[str]:
    """``parts`` joined into lines of at most ``width`` (a part longer stays whole)."""
    lines = [""]
    for part in parts:
        if lines[-1] and len(lines[-1]) + len(part.rstrip()) > width:
            lines.append("")
        lines[-1] += part
    return [line.rstrip() for line in lines]


def _fit(text: str, width: int) -> str:
    return text.ljust(width) if len(text) <= width else text[: width - 1] + "…"


def show(args: argparse.Namespace, data: Any, text: str) -> int:
    """Print ``data`` as JSON with ``--json``, else ``text``; return 0."""
    if getattr(args, "json", False):
        print_json(data)
    else:
        print(text)
    return EXIT_OK


def param_pairs(pairs: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs; a value that parses as JSON (numbers, true, lists) is taken so."""
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.isidentifier():
            raise CommandError(f"--param {pair!r}: expected key=value", EXIT_USAGE)
        try:
            params[key] = json.loads(raw)
        except ValueError:
            params[key] = raw
    return params
