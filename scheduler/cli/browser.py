"""``nous browser``: serve the Neo4j Browser guide on 127.0.0.1 and say how to open it.

The daemon serves the same guide while it runs; this is for looking at the
memory without a daemon (or with ``--print``, to write the guide's HTML or
the style to a file).
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

from graph.errors import GraphError
from graph.server.finder import find_or_start
from scheduler.cli.common import EXIT_OK, EXIT_USAGE, CommandError, common_options, settings_from
from scheduler.guide.serve import GuideServer
from scheduler.guide.slides import guide_html
from scheduler.guide.style import grass


def register(commands: Any) -> None:
    """Add ``nous browser``."""
    parser = commands.add_parser(
        "browser",
        parents=[common_options(prints_data=False)],
        help="serve the Neo4j Browser guide on 127.0.0.1 (or print it, or the style)",
        description="Serve the guide until Ctrl-C and print the :play command for Neo4j Browser.",
    )
    parser.add_argument("--port", type=int, help="port on 127.0.0.1 (default: neo4j.guide_port)")
    parser.add_argument(
        "--print",
        choices=["guide", "style"],
        dest="print_what",
        help="print the guide's HTML or the GraSS style instead of serving",
    )
    parser.set_defaults(handler=_browser)


def _browser(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    settings = settings_from(args)
    if args.print_what == "guide":
        sys.stdout.write(guide_html(settings.agent_id))
        return EXIT_OK
    if args.print_what == "style":
        sys.stdout.write(grass())
        return EXIT_OK
    port = args.port if args.port is not None else settings.neo4j.guide_port
    if port is None:
        raise CommandError("neo4j.guide_port is null and no --port was given", EXIT_USAGE)
    try:
        server = GuideServer(settings.agent_id, port).start()
    except OSError as exc:
        raise CommandError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    try:
        endpoint = find_or_start(settings.neo4j, allow_start=False)
        where = endpoint.browser_url or "any Neo4j Browser"
    except GraphError:
        where = "Neo4j Browser, once a Neo4j runs (`nous neo4j start`)"
    print(f"guide for agent '{settings.agent_id}' served at {server.url}")
    print(f"open {where}, connect, and run:  :play {server.url}")
    print("Ctrl-C stops serving", flush=True)
    try:
        (stop or threading.Event()).wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return EXIT_OK
