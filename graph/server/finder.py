"""Finding a Neo4j for the memory, or starting one.

The chain of ARCHITECTURE.md ("Finding a Neo4j"), in order: ``NEO4J_URI``; a
server already answering on ``bolt://{host}:{bolt_port}``; a Docker engine
(``docker compose up``); Java 17+ with Maven (:mod:`graph.server.maven`). With
none of them, :class:`Neo4jNotFoundError` says what to install.

Also a command line::

    python -m graph.neo4j start|stop|status [--config FILE]
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from graph.errors import MemoryUnavailableError, Neo4jNotFoundError, SettingsError
from graph.server import maven
from graph.server.address import local_uri as local_uri
from graph.settings import Neo4jSettings, child_environment, load_settings
from graph.store.probe import bolt_problem

_log = logging.getLogger(__name__)

How = Literal["env", "running", "docker", "maven"]
_PROBE_TIMEOUT_S = 5.0
# docker compose may pull the image first (~500 MB) before its own wait starts.
_COMPOSE_PULL_ALLOWANCE_S = 600.0


@dataclass(frozen=True)
class Neo4jEndpoint:
    """A Neo4j that answered with the configured credentials, and how it was found."""

    uri: str
    user: str
    password: str = field(repr=False)
    database: str
    how: How
    browser_url: str | None
    started_here: bool
    pid: int | None

    def describe(self) -> str:
        """One line for a banner: where, as whom, found how (never the password)."""
        origin = {
            "env": "from NEO4J_URI",
            "running": "already running",
            "docker": "in Docker",
            "maven": f"from Maven Central jars, pid {self.pid}",
        }[self.how]
        started = ", started now" if self.started_here else ""
        browser = f"; Browser {self.browser_url}" if self.browser_url else ""
        where = f"{self.uri} (user {self.user}, database {self.database})"
        return f"Neo4j at {where} {origin}{started}{browser}"


def find_or_start(
    settings: Neo4jSettings,
    *,
    allow_start: bool = True,
    environ: Mapping[str, str] | None = None,
) -> Neo4jEndpoint:
    """Find a Neo4j that answers with the configured credentials, starting one if needed.

    ``environ`` (default: :func:`graph.settings.child_environment` at call
    time) is where ``docker``, ``java`` and ``mvn`` are looked up and what
    started processes inherit.
    Raises :class:`MemoryUnavailableError` when ``settings.uri`` does not
    answer or a server refuses the credentials, and
    :class:`Neo4jNotFoundError` when nothing answers and nothing can be started.
    """
    env = child_environment() if environ is None else environ
    if settings.uri:
        return _configured(settings)
    found = _local(settings)
    if found is not None:
        return found
    if not allow_start:
        uri = local_uri(settings)
        raise Neo4jNotFoundError(f"No Neo4j answers on {uri}, and starting one was not allowed.")
    return _start(settings, env)


def _configured(settings: Neo4jSettings) -> Neo4jEndpoint:
    assert settings.uri is not None
    problem = _bolt_problem(settings, settings.uri)
    if problem is not None:
        raise MemoryUnavailableError(f"Neo4j at {settings.uri} (NEO4J_URI) {problem}")
    # Where a remote server's HTTP listens is unknown: no Browser link.
    return _endpoint(settings, settings.uri, "env", probe_browser=False)


def _local(settings: Neo4jSettings) -> Neo4jEndpoint | None:
    """The server already answering on the local port, or ours still starting; else None."""
    uri = local_uri(settings)
    if _port_open(settings.host, settings.bolt_port) and _bolt_problem(settings, uri) is None:
        pid = maven.running_pid(settings)
        return _endpoint(settings, uri, "maven" if pid else "running", pid=pid)
    pid = maven.running_pid(settings)
    if pid is not None:  # ours, still starting (another process launched it)
        maven.wait_until_ready(settings, pid, lambda: _ready(settings), started_here=False)
        return _endpoint(settings, uri, "maven", pid=pid)
    return None


def _start(settings: Neo4jSettings, env: Mapping[str, str]) -> Neo4jEndpoint:
    """Start a Neo4j with Docker, else from Maven Central jars; say what to install if neither."""
    uri = local_uri(settings)
    notes: list[str] = []
    if _docker_engine(env):
        try:
            _compose_up(settings, env)
            return _endpoint(settings, uri, "docker", started_here=True)
        except Neo4jNotFoundError as exc:
            notes.append(f"Docker: {exc}")
    else:
        notes.append("no Docker engine answers `docker info`")
    java, reason = _java_and_maven(settings, env)
    if java is not None:
        pid, started = maven.launch(settings, env, java)
        try:
            maven.wait_until_ready(settings, pid, lambda: _ready(settings), started_here=started)
        except MemoryUnavailableError as exc:
            raise MemoryUnavailableError(
                f"{exc}; {maven.home_dir(settings)} keeps the password it was first given "
                "(in data/dbms/auth.ini, which can be deleted to set a new one)"
            ) from None
        return _endpoint(settings, uri, "maven", started_here=started, pid=pid)
    notes.append(reason)
    raise Neo4jNotFoundError(
        f"No Neo4j answers on {uri}, and none could be started ({'; '.join(notes)}). "
        "Install one of: a Docker engine (Docker Desktop, or Docker Engine with the compose "
        "plugin); or Java 17+ and Maven (`mvn` on PATH), which run Neo4j Community "
        f"{settings.version} from Maven Central; or set NEO4J_URI (with NEO4J_USER and "
        "NEO4J_PASSWORD) to a Neo4j you already have."
    )


def stop(settings: Neo4jSettings) -> bool:
    """Stop the Maven-run server recorded in ``<home>/run/nous-neo4j.pid``.

    Returns whether one was running. A Docker-run Neo4j is left alone; it
    stops with ``docker compose -f docker-compose.neo4j.yml down``.
    """
    return maven.stop_server(settings)


def status(settings: Neo4jSettings) -> str:
    """A few lines on what answers where; starts and stops nothing."""
    lines = []
    if settings.uri:
        lines.append(f"NEO4J_URI {settings.uri}: {_answer_text(settings, settings.uri)}")
    uri = local_uri(settings)
    answer = _answer_text(settings, uri) if _port_open(settings.host, settings.bolt_port) else None
    lines.append(f"{uri}: {answer or 'not answering'}")
    pid = maven.running_pid(settings)
    home = maven.home_dir(settings)
    lines.append(f"Maven-run server: {f'pid {pid}' if pid else 'not running'} (home {home})")
    browser = _browser_url(settings)
    lines.append(f"Browser: {browser or 'not answering'}")
    jars = maven.server_jars_dir(settings)
    cached = "cached" if maven.jars_cached(settings) else "not fetched"
    lines.append(f"Neo4j {settings.version} jars: {cached} ({jars})")
    return "\n".join(lines)


def _endpoint(
    settings: Neo4jSettings,
    uri: str,
    how: How,
    *,
    started_here: bool = False,
    pid: int | None = None,
    probe_browser: bool = True,
) -> Neo4jEndpoint:
    return Neo4jEndpoint(
        uri=uri,
        user=settings.user,
        password=settings.password.get_secret_value(),
        database=settings.database,
        how=how,
        browser_url=_browser_url(settings) if probe_browser else None,
        started_here=started_here,
        pid=pid,
    )


def _bolt_problem(settings: Neo4jSettings, uri: str) -> str | None:
    """None when ``uri`` answers with the credentials, else why not (see :func:`bolt_problem`)."""
    password = settings.password.get_secret_value()
    return bolt_problem(uri, settings.user, password, timeout_s=_PROBE_TIMEOUT_S)


def _ready(settings: Neo4jSettings) -> bool:
    # HTTP (and with it the Browser) comes up a moment after Bolt.
    if not _port_open(settings.host, settings.http_port):
        return False
    return _bolt_problem(settings, local_uri(settings)) is None


def _answer_text(settings: Neo4jSettings, uri: str) -> str:
    try:
        problem = _bolt_problem(settings, uri)
    except MemoryUnavailableError:
        return "answering, but refuses the credentials (set NEO4J_PASSWORD)"
    return problem or "answering, credentials accepted"


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def _browser_url(settings: Neo4jSettings) -> str | None:
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    url = f"http://{host}:{settings.http_port}/browser/"
    try:
        with urllib.request.urlopen(url, timeout=_PROBE_TIMEOUT_S) as reply:
            return url if reply.status == 200 else None
    except OSError:
        return None


def _docker_engine(environ: Mapping[str, str]) -> bool:
    docker = shutil.which("docker", path=environ.get("PATH", ""))
    if docker is None:
        return False
    try:
        done = subprocess.run(
            [docker, "info"], capture_output=True, env=dict(environ), timeout=5, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _java_and_maven(settings: Neo4jSettings, environ: Mapping[str, str]) -> tuple[str | None, str]:
    """(java, "") when the Maven runtime can run here, else (None, why not)."""
    java_home = environ.get("JAVA_HOME")
    java = str(Path(java_home, "bin", "java")) if java_home else None
    if java is None or not os.access(java, os.X_OK):
        java = shutil.which("java", path=environ.get("PATH", ""))
    if java is None:
        return None, "java was not found (neither $JAVA_HOME/bin/java nor on PATH)"
    try:
        done = subprocess.run(
            [java, "-version"], capture_output=True, text=True, timeout=30, check=False
        )
        found = re.search(r'version "(\d+)(?:\.(\d+))?', done.stderr + done.stdout)
    except (OSError, subprocess.TimeoutExpired):
        found = None
    major = int(found.group(1)) if found else 0
    if found and major == 1:  # "1.8.0_402" is Java 8; "17.0.15" is Java 17
        major = int(found.group(2) or 0)
    if major < 17:
        return None, f"{java} is Java {major or '(version unknown)'}; Neo4j 5 needs 17 or newer"
    if not maven.jars_cached(settings) and not shutil.which("mvn", path=environ.get("PATH", "")):
        return None, "mvn (Maven) was not found on PATH, and the Neo4j jars are not cached yet"
    return java, ""


def _compose_up(settings: Neo4jSettings, environ: Mapping[str, str]) -> None:
    compose_file = settings.compose_file.expanduser().resolve()
    if not compose_file.is_file():
        raise Neo4jNotFoundError(f"{compose_file} does not exist")
    password = settings.password.get_secret_value()
    env = {
        **environ,
        # The image's admin user is always neo4j; the compose file reads NEO4J_PASSWORD.
        "NEO4J_AUTH": f"neo4j/{password}",
        "NEO4J_PASSWORD": password,
        "NOUS_NEO4J_HOST": settings.host,
        "NOUS_NEO4J_BOLT_PORT": str(settings.bolt_port),
        "NOUS_NEO4J_HTTP_PORT": str(settings.http_port),
        "NOUS_NEO4J_VECTOR_MERGE_FACTOR": str(settings.vector_merge_factor),
        "NOUS_NEO4J_TX_LOG_RETENTION": settings.tx_log_retention,
    }
    docker = shutil.which("docker", path=environ.get("PATH", "")) or "docker"
    command = [docker, "compose", "-f", str(compose_file), "up", "-d", "--wait"]
    _log.info("starting Neo4j with %s", " ".join(command[1:]))
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=env,
            timeout=settings.start_timeout_s + _COMPOSE_PULL_ALLOWANCE_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise Neo4jNotFoundError("docker compose up did not finish in time") from None
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip().replace(password, "********")
        raise Neo4jNotFoundError(f"docker compose up failed:\n{output[-2000:]}")
    deadline = time.monotonic() + settings.start_timeout_s
    while not _ready(settings):
        if time.monotonic() > deadline:
            raise Neo4jNotFoundError(f"the Docker Neo4j does not answer on {local_uri(settings)}")
        time.sleep(0.5)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m graph.neo4j``: start, stop or describe the local Neo4j."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--config", type=Path, metavar="FILE", help="settings file (default: ./nous.yaml)"
    )
    parser = argparse.ArgumentParser(
        prog="python -m graph.neo4j",
        description="Find, start or stop the Neo4j that holds Nous's memory.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, text in (
        ("start", "find a Neo4j or start one (NEO4J_URI, running, Docker, then Maven)"),
        ("stop", "stop the Maven-run Neo4j recorded in <home>/run/nous-neo4j.pid"),
        ("status", "say what answers where, and whether the jars are cached"),
    ):
        commands.add_parser(name, parents=[common], help=text, description=text)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        settings = load_settings(args.config).neo4j
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        if args.command == "start":
            print(find_or_start(settings).describe())
        elif args.command == "stop":
            stopped = stop(settings)
            print("stopped" if stopped else f"no Maven-run Neo4j in {maven.pid_file(settings)}")
        else:
            print(status(settings))
    except (Neo4jNotFoundError, MemoryUnavailableError, SettingsError) as exc:
        print(exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # A server being started was stopped on the way out; a fetch is retried next time.
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
