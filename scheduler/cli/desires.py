"""``nous desires``: self-improvement's wishes, listed, asked for and given a domain.

Desires are added and clarified through :class:`rsi.engine.RSIEngine`'s own
write paths (an external request is ``verified`` by the person who asked).
"""

from __future__ import annotations

import argparse
from typing import Any

from graph.store.memory import Memory
from rsi.engine import RSIEngine
from rsi.errors import RSIError
from scheduler.cli.common import CommandError, common_options, show, table, with_memory

LIST_LIMIT = 100
NONE_YET = "(filled by self-improvement's cycles; `nous desires add TEXT` asks for one)"


def register(commands: Any) -> None:
    """Add ``nous desires``."""
    common = common_options()
    parser = commands.add_parser(
        "desires",
        parents=[common],
        help="list desires; add one; name the domain of one",
        description="Without an action: the desires, newest first.",
    )
    parser.set_defaults(handler=with_memory(_list_desires))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    add = actions.add_parser("add", parents=[common], help="ask the agent to get better at TEXT")
    add.add_argument("text")
    add.add_argument("--intensity", type=float, default=0.7, help="0.0 to 1.0 (default 0.7)")
    add.add_argument("--domain", help="code, math or logic (default: routed when selected)")
    add.set_defaults(handler=with_memory(_add_desire))
    clarify = actions.add_parser(
        "clarify", parents=[common], help="name the domain of a desire waiting for one"
    )
    clarify.add_argument("id")
    clarify.add_argument("--domain", required=True, help="code, math or logic")
    clarify.set_defaults(handler=with_memory(_clarify))


async def _list_desires(args: argparse.Namespace, memory: Memory) -> int:
    rows = await memory.audit.desires(LIST_LIMIT)
    columns = ["id", "status", "origin", "domain", "score", "description"]
    return show(args, rows, table(rows, columns, empty=f"no desires {NONE_YET}"))


async def _add_desire(args: argparse.Namespace, memory: Memory) -> int:
    text = args.text.strip()
    if not text:
        raise CommandError("desires add: the text is empty", 2)
    if not 0.0 <= args.intensity <= 1.0:
        raise CommandError(f"--intensity {args.intensity}: must be between 0 and 1", 2)
    try:
        desire_id = await _engine(args, memory).add_external_desire(
            text, text, intensity=args.intensity, domain=args.domain
        )
    except RSIError as exc:
        raise CommandError(f"--domain: {exc}", 2) from None
    await memory.events.emit("desire_added", {"desire_id": desire_id, "origin": "external"})
    return show(args, {"id": desire_id}, f"desire {desire_id} added (external, verified): {text}")


async def _clarify(args: argparse.Namespace, memory: Memory) -> int:
    engine = _engine(args, memory)
    if await engine.store.desire(args.id) is None:
        raise CommandError(f"no desire {args.id!r} for agent {memory.agent_id!r}")
    try:
        desire = await engine.clarify(args.id, args.domain.strip())
    except RSIError as exc:
        raise CommandError(str(exc), 2) from None
    await memory.events.emit("desire_clarified", {"desire_id": args.id, "domain": desire.domain})
    row = {"id": desire.id, "status": desire.status, "domain": desire.domain}
    return show(args, row, f"desire {args.id} verified in domain {desire.domain!r}")


def _engine(args: argparse.Namespace, memory: Memory) -> RSIEngine:
    # Adding and clarifying need no model: the engine's own write paths, without an LLM.
    return RSIEngine(memory, None, args.settings.rsi)
