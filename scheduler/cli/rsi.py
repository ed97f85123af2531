"""``nous desires`` and ``nous heuristics``: self-improvement's wishes and what it distilled.

Desires are added and clarified through :class:`rsi.engine.RSIEngine`'s own
write paths (an external request is ``verified`` by the person who asked);
heuristics, crystallised by RSI, are read and retired on the ``Heuristic``
nodes directly; retiring one rewrites the strategies files under the watched
root's ``.nous/``.
"""

from __future__ import annotations

import argparse
from typing import Any

from graph.models import utc_now
from graph.settings import state_dir
from graph.store.admin import AdminStore
from graph.store.audit import AuditStore
from graph.store.heuristics import HeuristicStore
from graph.store.learning import LearningStore
from graph.store.memory import Memory
from rsi.engine import RSIEngine
from rsi.errors import RSIError
from rsi.strategies import StrategyBook
from scheduler.cli.common import CommandError, common_options, show, table, with_memory

LIST_LIMIT = 100
NONE_YET = "(filled by self-improvement's cycles; `nous desires add TEXT` asks for one)"


def register(commands: Any) -> None:
    """Add ``nous desires`` and ``nous heuristics``."""
    _desires(commands)
    _heuristics(commands)


def _desires(commands: Any) -> None:
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


def _heuristics(commands: Any) -> None:
    common = common_options()
    parser = commands.add_parser(
        "heuristics",
        parents=[common],
        help="list heuristics; show one with its trajectories; retire one",
        description="Without an action: the heuristics, active ones first.",
    )
    parser.set_defaults(handler=with_memory(_list_heuristics))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    show_p = actions.add_parser("show", parents=[common], help="one heuristic and its trajectories")
    show_p.add_argument("id")
    show_p.set_defaults(handler=with_memory(_show_heuristic))
    retire = actions.add_parser(
        "retire", parents=[common], help="prune a heuristic (kept in the graph, no longer used)"
    )
    retire.add_argument("id")
    retire.add_argument("--note", required=True, help="why it should no longer be used")
    retire.set_defaults(handler=with_memory(_retire))


async def _list_desires(args: argparse.Namespace, memory: Memory) -> int:
    rows = await AuditStore(memory).desires(LIST_LIMIT)
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
    await LearningStore(memory).emit("desire_added", {"desire_id": desire_id, "origin": "external"})
    return show(args, {"id": desire_id}, f"desire {desire_id} added (external, verified): {text}")


async def _clarify(args: argparse.Namespace, memory: Memory) -> int:
    engine = _engine(args, memory)
    if await engine.store.desire(args.id) is None:
        raise CommandError(f"no desire {args.id!r} for agent {memory.agent_id!r}")
    try:
        desire = await engine.clarify(args.id, args.domain.strip())
    except RSIError as exc:
        raise CommandError(str(exc), 2) from None
    await LearningStore(memory).emit(
        "desire_clarified", {"desire_id": args.id, "domain": desire.domain}
    )
    row = {"id": desire.id, "status": desire.status, "domain": desire.domain}
    return show(args, row, f"desire {args.id} verified in domain {desire.domain!r}")


def _engine(args: argparse.Namespace, memory: Memory) -> RSIEngine:
    # Adding and clarifying need no model: the engine's own write paths, without an LLM.
    return RSIEngine(memory, None, args.settings.rsi)


async def _list_heuristics(args: argparse.Namespace, memory: Memory) -> int:
    rows = await AuditStore(memory).heuristics(LIST_LIMIT)
    columns = ["id", "status", "domain", "usage_count", "trajectories", "content"]
    empty = "no heuristics (distilled from successful practice by self-improvement)"
    return show(args, rows, table(rows, columns, empty=empty))


async def _show_heuristic(args: argparse.Namespace, memory: Memory) -> int:
    row = await AuditStore(memory).heuristic(args.id)
    if row is None:
        raise CommandError(f"no heuristic {args.id!r} for agent {memory.agent_id!r}")
    h, trajectories = row["heuristic"], row["trajectories"]
    lines = [
        f"heuristic {h['id']} ({h.get('status')}, domain {h.get('domain')},"
        f" used {h.get('usage_count', 0)} times)",
        f"  {h.get('content')}",
    ]
    if h.get("prune_reason"):
        lines.append(f"  pruned {h.get('pruned_at')}: {h['prune_reason']}")
    lines += ["", f"distilled from {len(trajectories)} trajectories:"]
    columns = ["id", "success", "partial_score", "tests_passed", "tests_total", "problem"]
    lines.append(table(trajectories, columns, empty="  (none recorded)"))
    return show(args, row, "\n".join(lines))


async def _retire(args: argparse.Namespace, memory: Memory) -> int:
    if not args.note.strip():
        raise CommandError("--note: say why the heuristic is retired", 2)
    row = await AdminStore(memory).retire_heuristic(args.id, args.note, utc_now())
    if row is None:
        raise CommandError(f"no heuristic {args.id!r} for agent {memory.agent_id!r}")
    await LearningStore(memory).emit("heuristic_retired", {"heuristic_id": args.id})
    # The strategies files follow the active set now, not at the daemon's next request.
    settings = args.settings
    root = settings.watch.root.expanduser().resolve()
    await StrategyBook(
        HeuristicStore(memory), settings.rsi.max_strategy_tokens, state_dir(root)
    ).refresh()
    return show(args, row, f"heuristic {args.id} retired (pruned; kept in the graph)")
