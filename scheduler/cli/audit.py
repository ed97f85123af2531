"""``nous audit [NAME]``: the read-only queries of ``cypher/audit/``, listed or run."""

from __future__ import annotations

import argparse
from typing import Any

from graph.errors import QueryNotFoundError
from graph.store.audit import AREA
from graph.store.memory import Memory
from graph.store.queries import QueryLibrary
from scheduler.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    CommandError,
    common_options,
    param_pairs,
    print_json,
    show,
    table,
    with_memory,
)

DEFAULT_LIMIT = 25


def register(commands: Any) -> None:
    """Add ``nous audit [NAME] [--param key=value ...]``."""
    parser = commands.add_parser(
        "audit",
        parents=[common_options()],
        help="list the audit queries, or run one",
        description="Without NAME: every query in cypher/audit/ with its purpose. With NAME: "
        "run it; $agent_id is filled in, $limit defaults to 25, others come from --param.",
    )
    parser.add_argument("name", nargs="?", help="a query name, e.g. recent_decisions")
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help='a query parameter (JSON values are parsed: 5, true, "x")',
    )
    parser.set_defaults(handler=_audit)


def audit_queries(library: QueryLibrary | None = None) -> list[tuple[str, str]]:
    """(name, purpose) of every audit query, by name."""
    library = library or QueryLibrary()
    out = []
    for full in library.names(AREA):
        query = library.get(full)
        out.append((full.split("/", 1)[1], " ".join(query.headers["purpose"].split())))
    return out


def _audit(args: argparse.Namespace) -> int:
    if args.name is None:
        rows = [{"name": n, "purpose": p} for n, p in audit_queries()]
        if args.json:
            print_json(rows)
        else:
            for row in rows:
                print(f"{row['name']}\n    {row['purpose']}")
        return EXIT_OK
    library = QueryLibrary()
    try:
        query = library.get(f"{AREA}/{args.name}")
    except QueryNotFoundError:
        names = ", ".join(n for n, _ in audit_queries(library))
        raise CommandError(
            f"no audit query {args.name!r}; there are: {names}", EXIT_USAGE
        ) from None
    if query.mode != "read":
        raise CommandError(f"{query.path}: an audit must be a read (// mode: read)", EXIT_USAGE)
    params = param_pairs(args.param)
    if "$limit" in query.text:
        params.setdefault("limit", DEFAULT_LIMIT)
    missing = sorted(p for p in _parameters(query.headers.get("params", "")) if p not in params)
    if missing:
        raise CommandError(
            f"audit {args.name} needs " + ", ".join(f"--param {m}=…" for m in missing), EXIT_USAGE
        )
    args.params = params
    return with_memory(_run)(args)


async def _run(args: argparse.Namespace, memory: Memory) -> int:
    found = await memory.audit.audit(args.name, args.params)
    rows = [dict(zip(found.columns, row, strict=True)) for row in found.rows]
    return show(args, rows, table(rows, found.columns, empty="no rows"))


def _parameters(header: str) -> list[str]:
    words = header.replace(",", " ").replace("(", " ").replace(")", " ").split()
    names = {w[1:].rstrip(".:;") for w in words if w.startswith("$")}
    return sorted(n for n in names if n and n != "agent_id")
