"""Neo4j Community from Maven Central, run as a plain Java process.

The last resort of the chain in :mod:`graph.server.finder`, for machines with Java 17+
and Maven but no Docker engine. The jars of one Neo4j version are fetched once
into ``<cache_dir>/neo4j-<version>/lib`` (the Browser into its own folder, so
it can be left out); a server then runs from them with its conf, data and logs
under ``settings.home`` (fetching: :mod:`graph.server.jars`). The server's pid is recorded in
``<home>/run/nous-neo4j.pid``, which is how a later process finds it again,
reuses it, or stops it.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from pathlib import Path

from graph.errors import Neo4jNotFoundError, SettingsError
from graph.server.jars import (
    DEPENDENCY_PLUGIN_VERSION,
    fetch_jars,
    jars_cached,
    last_lines,
    locked,
    render_pom,
    server_jars_dir,
)
from graph.settings import Neo4jSettings

_log = logging.getLogger(__name__)

SERVER_CLASS = "org.neo4j.server.CommunityEntryPoint"
ADMIN_CLASS = "org.neo4j.cli.AdminTool"
PID_FILE = "nous-neo4j.pid"
_ADMIN_TIMEOUT_S = 120.0
_STOP_GRACE_S = 60.0
# The subset of the options neo4j's own launcher passes that matter without
# it: G1, direct-buffer caching, and the module openings Netty needs on 17+.
_JVM_OPTIONS = (
    *("-XX:+UseG1GC", "-XX:-OmitStackTraceInFastThrow", "-XX:+DisableExplicitGC"),
    *("-Djdk.nio.maxCachedBufferSize=262144", "-Dio.netty.tryReflectionSetAccessible=true"),
    *("-Dlog4j2.disable.jmx=true", "-Dfile.encoding=UTF-8"),
    *(f"--add-opens=java.base/{p}=ALL-UNNAMED" for p in ("java.nio", "java.io", "java.lang")),
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
)
_SAFE_CONF_VALUE = re.compile(r"^[^\s=#\\]+$")

# Servers started by this process, kept so they are reaped (no zombie) and so
# a Popen is never collected while its server runs (that warns).
_started: dict[int, subprocess.Popen[bytes]] = {}


def home_dir(settings: Neo4jSettings) -> Path:
    """The server's home as an absolute path."""
    return settings.home.expanduser().resolve()


def pid_file(settings: Neo4jSettings) -> Path:
    """Where the pid of the Maven-run server is recorded."""
    return home_dir(settings) / "run" / PID_FILE


def render_conf(settings: Neo4jSettings) -> str:
    """``neo4j.conf`` for the server in ``settings.home``, written anew on every start."""
    home = home_dir(settings)
    host = _conf_value("host", settings.host)
    bolt = _address(host, settings.bolt_port)
    http = _address(host, settings.http_port)
    heap = _conf_value("heap_size", settings.heap_size)
    lines = [
        "# Written by Nous from the neo4j settings on every start; edits here are lost.",
        *(
            f"server.directories.{d}={home / d}"
            for d in ("data", "logs", "run", "plugins", "import")
        ),
        f"server.default_listen_address={host}",
        f"server.default_advertised_address={host}",
        "server.bolt.enabled=true",
        f"server.bolt.listen_address={bolt}",
        f"server.bolt.advertised_address={bolt}",
        "server.http.enabled=true",
        f"server.http.listen_address={http}",
        f"server.http.advertised_address={http}",
        "server.https.enabled=false",
        f"server.memory.heap.initial_size={heap}",
        f"server.memory.heap.max_size={heap}",
        f"server.memory.pagecache.size={_conf_value('pagecache_size', settings.pagecache_size)}",
        # Checked against Neo4j's own pattern by the settings, spaces and all.
        f"db.tx_log.rotation.retention_policy={settings.tx_log_retention}",
        "dbms.security.auth_enabled=true",
        f"initial.dbms.default_database={_conf_value('database', settings.database)}",
        # A local memory has no business phoning home.
        "dbms.usage_report.enabled=false",
        # Fewer, larger segments in the vector index: a query searches each one (Neo4j keeps
        # up to 50 before merging them; settings_model.Neo4jSettings.vector_merge_factor).
        f"internal.dbms.index.vector.standard_merge_factor={settings.vector_merge_factor}",
        *browser_guide_conf(settings),
    ]
    return "\n".join(lines) + "\n"


def guide_url(port: int) -> str:
    """Where the Browser guide is served (by the daemon or `nous browser`, on 127.0.0.1)."""
    # "localhost" is on every Neo4j 5 Browser's default allow-list of guide hosts.
    return f"http://localhost:{port}/nous.html"


def browser_guide_conf(settings: Neo4jSettings) -> list[str]:
    """Neo4j Browser settings: play the guide on connect, and allow loading it.

    Neo4j 5.26 declares ``browser.remote_content_hostname_whitelist`` (its
    ``ServerSettings``); an ``..._allowlist`` spelling is refused at start
    ("Unrecognized setting"), so the older name it is.
    """
    if settings.guide_port is None:
        return []
    return [
        f"browser.post_connect_cmd=play {guide_url(settings.guide_port)}",
        "browser.remote_content_hostname_whitelist=guides.neo4j.com,localhost,127.0.0.1",
    ]


def launch(settings: Neo4jSettings, environ: Mapping[str, str], java: str) -> tuple[int, bool]:
    """Start the server of ``settings.home`` unless it runs; (its pid, started now).

    Writes the conf, fetches the jars and sets the initial password as needed.
    The server runs in its own session, so it outlives this process and can be
    stopped as a group. Nothing here waits for it: see :func:`wait_until_ready`.
    """
    home = home_dir(settings)
    for sub in ("conf", "data", "logs", "run", "plugins", "import", "run/tmp"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    # Two processes starting the same home at once must end up with one server.
    with locked(home / "run" / "start.lock"):
        pid = running_pid(settings)
        return (pid, False) if pid is not None else (_spawn(settings, environ, java), True)


def _spawn(settings: Neo4jSettings, environ: Mapping[str, str], java: str) -> int:
    _check_ports_free(settings)
    classpath = os.pathsep.join(str(folder / "*") for folder in fetch_jars(settings, environ))
    home = home_dir(settings)
    (home / "conf" / "neo4j.conf").write_text(render_conf(settings), encoding="utf-8")
    env = {**environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(home / "conf")}
    if not (home / "data" / "dbms" / "auth.ini").exists():
        _set_initial_password(settings, java, classpath, env)
    heap, tmp = settings.heap_size, home / "run" / "tmp"
    # Jetty unpacks the Browser into java.io.tmpdir: keep that with the server, not in /tmp.
    jvm = [java, *_JVM_OPTIONS, f"-Xms{heap}", f"-Xmx{heap}", f"-Djava.io.tmpdir={tmp}"]
    main = [SERVER_CLASS, f"--home-dir={home}", f"--config-dir={home / 'conf'}"]
    with (home / "logs" / "console.log").open("ab") as console:
        process = subprocess.Popen(
            [*jvm, "-cp", classpath, *main], stdin=subprocess.DEVNULL, stdout=console,
            stderr=subprocess.STDOUT, env=env, cwd=home, start_new_session=True,
        )  # fmt: skip
    _started[process.pid] = process
    # Written whole then renamed, so a reader never sees half a pid.
    pid_file(settings).with_suffix(".tmp").write_text(f"{process.pid}\n", encoding="utf-8")
    pid_file(settings).with_suffix(".tmp").replace(pid_file(settings))
    _log.info("Neo4j %s starting from Maven jars, pid %d", settings.version, process.pid)
    return process.pid


def wait_until_ready(
    settings: Neo4jSettings, pid: int, ready: Callable[[], bool], *, started_here: bool
) -> None:
    """Poll ``ready`` until it is true, the server exits, or ``start_timeout_s`` passes.

    A server this call's caller started is stopped when waiting fails in any
    way (including an interrupt), so a failed start leaves no process behind.
    """
    deadline = time.monotonic() + settings.start_timeout_s
    try:
        while not ready():
            if not is_alive(pid) or time.monotonic() > deadline:
                limit = f"did not answer within {settings.start_timeout_s:g} s"
                what = "exited" if not is_alive(pid) else limit
                raise Neo4jNotFoundError(f"Neo4j (pid {pid}) {what}.{_tail(settings)}")
            time.sleep(0.5)
    except BaseException:
        if started_here:
            _terminate(pid)
            pid_file(settings).unlink(missing_ok=True)
        raise


def running_pid(settings: Neo4jSettings) -> int | None:
    """The pid in the pid file if it is a live Neo4j server of this home, else None."""
    try:
        pid = int(pid_file(settings).read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None
    info = _process_info(pid)
    if info is None or info[0] == "Z":
        return None
    # Also guards against a pid reused by an unrelated process after a reboot.
    home_arg = f"--home-dir={home_dir(settings)}"
    return pid if SERVER_CLASS in info[1] and home_arg in info[1] else None


def stop_server(settings: Neo4jSettings) -> bool:
    """Stop the server recorded in the pid file; whether there was one to stop."""
    pid = running_pid(settings)
    if pid is not None:
        _terminate(pid)
    pid_file(settings).unlink(missing_ok=True)
    return pid is not None


def is_alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not count; one of ours is reaped here)."""
    process = _started.get(pid)
    if process is not None:
        if process.poll() is None:
            return True
        del _started[pid]
        return False
    info = _process_info(pid)
    return info is not None and info[0] != "Z"


def _terminate(pid: int) -> None:
    # SIGTERM lets Neo4j check-point and close its stores; SIGKILL only if it hangs.
    for sig, grace in ((signal.SIGTERM, _STOP_GRACE_S), (signal.SIGKILL, 10.0)):
        _signal_group(pid, sig)
        deadline = time.monotonic() + grace
        while is_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if not is_alive(pid):
            break
    # Neo4j starts no children, but a plugin could; they share its group.
    _signal_group(pid, signal.SIGKILL)


def _signal_group(pid: int, sig: signal.Signals) -> None:
    try:
        if os.getpgid(pid) == pid:
            os.killpg(pid, sig)
        else:
            os.kill(pid, sig)
    except ProcessLookupError:
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, sig)  # leader gone: whatever is left of its group


def _process_info(pid: int) -> tuple[str, str] | None:
    """(state letter, command line) of ``pid``, or None if there is no such process."""
    proc = Path("/proc", str(pid))
    try:
        if Path("/proc/self").exists():
            stat = (proc / "stat").read_text(encoding="utf-8", errors="replace")
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            return stat.rsplit(")", 1)[1].split()[0], command
        done = subprocess.run(
            ["ps", "-o", "stat=,args=", "-p", str(pid)],
            capture_output=True, text=True, timeout=10, check=False,
        )  # fmt: skip
        state, _, command = done.stdout.strip().partition(" ")
        return (state[:1], command) if done.returncode == 0 and state else None
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return None


def _set_initial_password(
    settings: Neo4jSettings, java: str, classpath: str, env: Mapping[str, str]
) -> None:
    # neo4j-admin takes the password only as an argument: it is visible to
    # this machine's `ps` for about a second, on first start only.
    password = settings.password.get_secret_value()
    command = [java, "-cp", classpath, ADMIN_CLASS, "dbms", "set-initial-password", password]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=dict(env),
            timeout=_ADMIN_TIMEOUT_S, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise Neo4jNotFoundError("neo4j-admin set-initial-password timed out") from None
    if done.returncode != 0:
        output = _redact(settings, (done.stdout + done.stderr).strip())
        raise Neo4jNotFoundError(
            f"neo4j-admin could not set the initial password (Neo4j wants 8 characters or "
            f"more):\n{output}"
        )


def _check_ports_free(settings: Neo4jSettings) -> None:
    # Otherwise Neo4j fails only after Bolt is up, and a stranger on the HTTP
    # port would pass for the server's own connector.
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    for key, port in (("bolt_port", settings.bolt_port), ("http_port", settings.http_port)):
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((settings.host, port))
            except OSError as exc:
                raise Neo4jNotFoundError(
                    f"{_address(settings.host, port)} (neo4j.{key}) is taken ({exc.strerror}); "
                    f"stop what holds it or choose another port (NOUS_NEO4J__{key.upper()})"
                ) from None


def _tail(settings: Neo4jSettings) -> str:
    logs = home_dir(settings) / "logs"
    parts = [
        f"\n--- last lines of {path} ---\n{_redact(settings, last_lines(path))}"
        for path in (logs / "console.log", logs / "neo4j.log")
        if path.exists()
    ]
    return "".join(parts)


def _redact(settings: Neo4jSettings, text: str) -> str:
    password = settings.password.get_secret_value()
    return text.replace(password, "********") if password else text


def _conf_value(key: str, value: str) -> str:
    # A newline or "=" would smuggle another setting into neo4j.conf.
    if not _SAFE_CONF_VALUE.fullmatch(value):
        raise SettingsError(f"neo4j.{key}: {value!r} cannot go into neo4j.conf")
    return value


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


__all__ = [
    "DEPENDENCY_PLUGIN_VERSION",
    "fetch_jars",
    "jars_cached",
    "render_pom",
    "server_jars_dir",
]
