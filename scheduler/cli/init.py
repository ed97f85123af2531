"""``nous init claude``: give a project's Claude Code Nous's hooks and MCP server."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from scheduler.cli.common import EXIT_OK, EXIT_USAGE, CommandError, common_options, settings_from


def register(commands: Any) -> None:
    """Add ``nous init claude [--root DIR] [--remove] [--service [--enable]]``."""
    parser = commands.add_parser(
        "init",
        parents=[common_options(prints_data=False)],
        help="set up an agent runtime to use Nous (claude: Claude Code's hooks and MCP server)",
        description=(
            "claude: merge Nous's hooks into ROOT/.claude/settings.json and its MCP server into "
            "ROOT/.mcp.json (your own entries stay); --remove takes exactly Nous's out again."
        ),
    )
    parser.add_argument("runtime", choices=["claude"])
    parser.add_argument("--root", type=Path, default=Path("."), help="the project (default: .)")
    parser.add_argument("--remove", action="store_true", help="take Nous's entries out")
    parser.add_argument(
        "--service",
        action="store_true",
        help=(
            "also install the daemon for ROOT as a user service (as `nous service install`): "
            "hooks the daemon answers cost a fraction of hooks that work alone"
        ),
    )
    parser.add_argument(
        "--enable", action="store_true", help="with --service: also enable and start it now"
    )
    parser.set_defaults(handler=_init)


def _init(args: argparse.Namespace) -> int:
    from scheduler.claude.init import InitError, init_claude

    settings = settings_from(args)
    root: Path = args.root.resolve()
    if not root.is_dir():
        raise CommandError(f"--root {args.root}: not a folder", EXIT_USAGE)
    try:
        changes = init_claude(root, timeout_s=settings.claude.hook_timeout_s, remove=args.remove)
    except InitError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    for line in changes or [f"{root}: nothing to change"]:
        print(line)
    if not args.remove and changes:
        print("Run `claude` in this folder as usual: Nous remembers, recalls and censors.")
    if args.service and not args.remove:
        from scheduler.cli.service import install_service, service_for

        args.root = root
        install_service(service_for(args), _service_kind(), enable=args.enable)
    return EXIT_OK


def _service_kind() -> str:
    return "launchd" if sys.platform == "darwin" else "systemd"
