"""``nous service print|install|uninstall``: run the daemon as a user service.

A systemd user unit on Linux, a launchd agent on macOS: ``Restart=on-failure``
(launchd: ``KeepAlive`` unless it exited cleanly), the watched root as the
working directory, this root and settings file on the command line, and
``NEO4J_PASSWORD`` from an environment file readable by the user alone, so
the password is never part of the unit. ``install`` writes files under the
user's own folders (``$XDG_CONFIG_HOME``, ``~/Library``) and prints the
command that enables the service; ``--enable`` runs it.
"""

from __future__ import annotations

import argparse
import os
import plistlib
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graph.settings import state_dir
from scheduler.cli.common import (
    EXIT_NOT_FOUND,
    EXIT_OK,
    CommandError,
    common_options,
    settings_from,
)


@dataclass(frozen=True)
class Service:
    """Everything a unit or plist says, for one agent and root."""

    agent_id: str
    root: Path
    config: Path | None
    python: str
    env_file: Path

    @property
    def command(self) -> list[str]:
        """The daemon's command line."""
        cmd = [self.python, "-m", "graph.daemon", "--root", str(self.root)]
        cmd += ["--agent-id", self.agent_id]
        return cmd + (["--config", str(self.config)] if self.config else [])

    @property
    def name(self) -> str:
        """``nous-<agent>``: the unit's name (``com.nous.<agent>`` for launchd)."""
        return f"nous-{self.agent_id}"


def register(commands: Any) -> None:
    """Add ``nous service``."""
    parser = commands.add_parser(
        "service",
        parents=[common_options(prints_data=False)],
        help="print, install or uninstall a systemd user unit / launchd agent",
        description="A service that runs the daemon for this root and settings file.",
    )
    parser.add_argument("action", choices=["print", "install", "uninstall"])
    parser.add_argument("--root", type=Path, help="the watched root (default: watch.root)")
    parser.add_argument(
        "--kind",
        choices=["systemd", "launchd"],
        default="launchd" if sys.platform == "darwin" else "systemd",
        help="systemd user unit (Linux, default) or launchd agent (macOS, default there)",
    )
    parser.add_argument(
        "--enable", action="store_true", help="install: also enable and start it now"
    )
    parser.set_defaults(handler=_service)


def service_for(args: argparse.Namespace) -> Service:
    """The service of the settings named on the command line."""
    settings = settings_from(args)
    root = (args.root or settings.watch.root).expanduser().resolve()
    if not root.is_dir():
        raise CommandError(f"--root: {root} is not a folder", 2)
    config = args.config.expanduser().resolve() if args.config else None
    if config is None and Path("nous.yaml").is_file():
        config = Path("nous.yaml").resolve()
    return Service(
        settings.agent_id,
        root,
        config,
        sys.executable,
        _config_home() / "nous" / f"{settings.agent_id}.env",
    )


def systemd_unit(s: Service) -> str:
    """The systemd user unit."""
    return "\n".join(
        [
            "[Unit]",
            f"Description=Nous agent {s.agent_id} watching {s.root}",
            "After=network-online.target",
            "",
            "[Service]",
            "Type=simple",
            f"WorkingDirectory={_specifiers(str(s.root))}",
            f"EnvironmentFile=-{_specifiers(str(s.env_file))}",
            "ExecStart=" + " ".join(_systemd_quote(a) for a in s.command),
            "Restart=on-failure",
            "RestartSec=10",
            # SIGTERM lets the daemon finish the batch in hand and flush its queue.
            "KillSignal=SIGTERM",
            "TimeoutStopSec=90",
            "",
            "[Install]",
            "WantedBy=default.target",
            "",
        ]
    )


def launchd_plist(s: Service) -> bytes:
    """The launchd agent's plist (XML)."""
    # launchd has no environment file: a shell reads it, then becomes the daemon.
    script = f"set -a; [ -f {shlex.quote(str(s.env_file))} ] && . {shlex.quote(str(s.env_file))}; "
    script += "exec " + shlex.join(s.command)
    logs = state_dir(s.root) / "logs"
    plist = {
        "Label": f"com.nous.{s.agent_id}",
        "ProgramArguments": ["/bin/sh", "-c", script],
        "WorkingDirectory": str(s.root),
        "RunAtLoad": True,
        "KeepAlive": {"SuccessfulExit": False},
        "ThrottleInterval": 10,
        "StandardOutPath": str(logs / "daemon.out.log"),
        "StandardErrorPath": str(logs / "daemon.err.log"),
    }
    return plistlib.dumps(plist)


def unit_path(s: Service, kind: str) -> Path:
    """Where ``install`` puts the unit or plist."""
    if kind == "systemd":
        return _config_home() / "systemd" / "user" / f"{s.name}.service"
    return Path.home() / "Library" / "LaunchAgents" / f"com.nous.{s.agent_id}.plist"


def _service(args: argparse.Namespace) -> int:
    s = service_for(args)
    text = systemd_unit(s).encode() if args.kind == "systemd" else launchd_plist(s)
    if args.action == "print":
        sys.stdout.write(text.decode())
        return EXIT_OK
    path = unit_path(s, args.kind)
    _, disable = _commands(s, args.kind, path)
    if args.action == "uninstall":
        if not path.exists():
            print(f"nous: no service at {path}", file=sys.stderr)
            return EXIT_NOT_FOUND
        if args.enable:
            _run_all(disable)
        path.unlink()
        print(f"removed {path} (the environment file {s.env_file} is kept)")
        return EXIT_OK
    install_service(s, args.kind, enable=args.enable)
    return EXIT_OK


def install_service(s: Service, kind: str, *, enable: bool = False) -> Path:
    """Write the unit (or plist) and the environment file; enable it, or say how. Its path."""
    text = systemd_unit(s).encode() if kind == "systemd" else launchd_plist(s)
    path = unit_path(s, kind)
    start, _ = _commands(s, kind, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)
    _write_env_file(s.env_file)
    print(f"wrote {path}\nNEO4J_PASSWORD goes in {s.env_file} (readable by you alone)")
    if enable:
        _run_all(start)
    else:
        print("enable and start it with:\n  " + "\n  ".join(shlex.join(c) for c in start))
    return path


def _commands(s: Service, kind: str, path: Path) -> tuple[list[list[str]], list[list[str]]]:
    if kind == "systemd":
        unit = f"{s.name}.service"
        enable = [
            ["systemctl", "--user", "daemon-reload"],
            ["systemctl", "--user", "enable", "--now", unit],
        ]
        return enable, [["systemctl", "--user", "disable", "--now", unit]]
    return [["launchctl", "load", "-w", str(path)]], [["launchctl", "unload", "-w", str(path)]]


def _run_all(commands: list[list[str]]) -> None:
    for command in commands:
        if shutil.which(command[0]) is None:
            raise CommandError(f"{command[0]} is not on PATH: run {shlex.join(command)} yourself")
        subprocess.run(command, check=True)


def _write_env_file(path: Path) -> None:
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as env:
        env.write("# Environment of the Nous service; keep it readable by you alone.\n")
        env.write("# NEO4J_PASSWORD=\n")


def _config_home() -> Path:
    configured = os.environ.get("XDG_CONFIG_HOME")
    return Path(configured) if configured else Path.home() / ".config"


def _systemd_quote(word: str) -> str:
    # systemd splits ExecStart like a shell, and expands "%" and "$" itself.
    escaped = word.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%").replace("$", "$$")
    return f'"{escaped}"' if any(c in escaped for c in " \t\"'") or not escaped else escaped


def _specifiers(path: str) -> str:
    # A path setting is taken whole, but "%" still starts a specifier.
    return path.replace("%", "%%")
