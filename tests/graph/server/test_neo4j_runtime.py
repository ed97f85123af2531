"""Finding or starting a Neo4j: the generated files, the chain's messages, and a
real server from Maven Central started, used and stopped.

Nothing here mocks: "nothing is installed" is an empty ``PATH`` handed to the
chain, "no Docker engine" a ``DOCKER_HOST`` that points nowhere. Servers run on
free ports picked at run time, never on 7687/7474.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import neo4j
import pytest
from pydantic import SecretStr, ValidationError

from graph.errors import MemoryUnavailableError, Neo4jNotFoundError, SettingsError
from graph.server import maven as neo4j_maven
from graph.server.finder import Neo4jEndpoint, find_or_start, status, stop
from graph.settings import Neo4jSettings
from graph.store.queries import QueryLibrary

REPO = Path(__file__).resolve().parents[3]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
# Makes `docker info` fail, so the chain goes on to the Maven runtime.
NO_DOCKER = {**os.environ, "DOCKER_HOST": "unix:///nonexistent/docker.sock"}


def _free_ports(count: int) -> list[int]:
    # All held open at once, so the kernel cannot hand out one port twice.
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _settings(tmp_path: Path, **changes: Any) -> Neo4jSettings:
    bolt, http = _free_ports(2)
    values: dict[str, Any] = {
        "home": tmp_path / "neo4j",
        "bolt_port": bolt,
        "http_port": http,
        "password": SecretStr("runtime-test-password"),
        "heap_size": "512m",
        "pagecache_size": "64m",
        **changes,
    }
    return Neo4jSettings(**values)


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


def _servers_of(home: Path) -> list[int]:
    """Pids of every live process whose command line runs a Neo4j in ``home``."""
    needle = f"--home-dir={home.resolve()}".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and needle in (entry / "cmdline").read_bytes():
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


@pytest.fixture
def java_and_maven() -> None:
    if shutil.which("java") and shutil.which("mvn"):
        return
    message = "Java 17+ and Maven are needed to run Neo4j from Maven Central"
    if IN_CI:
        pytest.fail(message + " (CI=true: this test never skips)", pytrace=False)
    pytest.skip(message)


def _conf(settings: Neo4jSettings) -> dict[str, str]:
    lines = neo4j_maven.render_conf(settings).splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_conf_binds_connectors_to_host_and_keeps_dirs_under_home(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    conf = _conf(settings)
    home = (tmp_path / "neo4j").resolve()

    assert conf["server.default_listen_address"] == "127.0.0.1"
    assert conf["server.bolt.listen_address"] == f"127.0.0.1:{settings.bolt_port}"
    assert conf["server.http.listen_address"] == f"127.0.0.1:{settings.http_port}"
    assert conf["server.https.enabled"] == "false"
    assert conf["dbms.security.auth_enabled"] == "true"
    assert conf["server.memory.heap.max_size"] == "512m"
    assert conf["server.memory.pagecache.size"] == "64m"
    # Fewer vector index segments than Neo4j's own 50 (each one is searched on its own).
    assert conf["internal.dbms.index.vector.standard_merge_factor"] == "5"
    # Two days of transaction logs, never more than 1 GiB (Neo4j's own default has no cap).
    assert conf["db.tx_log.rotation.retention_policy"] == "2 days 1G"
    directories = {k: Path(v) for k, v in conf.items() if k.startswith("server.directories.")}
    assert set(directories) >= {f"server.directories.{d}" for d in ("data", "logs", "run")}
    assert all(path.is_absolute() and path.is_relative_to(home) for path in directories.values())
    assert "runtime-test-password" not in neo4j_maven.render_conf(settings)


def test_conf_resolves_a_relative_home_against_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    conf = _conf(_settings(tmp_path, home=Path(".nous/neo4j")))
    assert conf["server.directories.data"] == str(tmp_path.resolve() / ".nous/neo4j/data")


def test_conf_refuses_a_value_that_would_add_a_setting(tmp_path: Path) -> None:
    settings = _settings(tmp_path, host="127.0.0.1\ndbms.security.auth_enabled=false")
    with pytest.raises(SettingsError, match=r"neo4j\.host"):
        neo4j_maven.render_conf(settings)


@pytest.mark.parametrize("value", ["100M size", "7 days 500M", "12 hours", "keep_none", "200K txs"])
def test_conf_takes_a_transaction_log_retention_as_neo4j_reads_it(
    tmp_path: Path, value: str
) -> None:
    conf = _conf(_settings(tmp_path, tx_log_retention=value))
    assert conf["db.tx_log.rotation.retention_policy"] == value


@pytest.mark.parametrize(
    "value", ["2 days\ndbms.security.auth_enabled=false", "1G", "forever", "2 weeks", ""]
)
def test_a_transaction_log_retention_neo4j_would_refuse_is_named(
    tmp_path: Path, value: str
) -> None:
    with pytest.raises(ValidationError, match=r"tx_log_retention"):
        _settings(tmp_path, tx_log_retention=value)


def test_pom_asks_for_the_artifact_with_a_pinned_dependency_plugin() -> None:
    pom = ElementTree.fromstring(neo4j_maven.render_pom("org.neo4j", "neo4j", "5.26.30"))
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    dependency = pom.find("m:dependencies/m:dependency", ns)
    assert dependency is not None
    coordinates = [dependency.findtext(f"m:{k}", namespaces=ns) for k in ("groupId", "artifactId")]
    assert [*coordinates, dependency.findtext("m:version", namespaces=ns)] == [
        "org.neo4j",
        "neo4j",
        "5.26.30",
    ]
    assert pom.findtext("m:packaging", namespaces=ns) == "pom"
    plugin = pom.find("m:build/m:plugins/m:plugin", ns)
    assert plugin is not None
    assert plugin.findtext("m:version", namespaces=ns) == neo4j_maven.DEPENDENCY_PLUGIN_VERSION


def test_jar_cache_is_one_folder_per_version_and_cannot_escape(tmp_path: Path) -> None:
    settings = _settings(tmp_path, cache_dir=tmp_path / "cache")
    assert neo4j_maven.server_jars_dir(settings) == tmp_path / "cache" / "neo4j-5.26.30"
    with pytest.raises(SettingsError, match=r"neo4j\.version"):
        neo4j_maven.server_jars_dir(_settings(tmp_path, version="../../elsewhere"))


def test_with_nothing_installed_the_message_says_what_to_install(tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    settings = _settings(tmp_path)

    with pytest.raises(Neo4jNotFoundError) as caught:
        find_or_start(settings, environ={"PATH": str(empty)})

    message = str(caught.value)
    assert f"bolt://127.0.0.1:{settings.bolt_port}" in message
    for words in ("a Docker engine", "Java 17+ and Maven", "set NEO4J_URI"):
        assert words in message
    assert "runtime-test-password" not in message
    assert not (tmp_path / "neo4j").exists()  # nothing was started or written


def test_without_permission_to_start_nothing_is_started(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    with pytest.raises(Neo4jNotFoundError, match="not allowed"):
        find_or_start(settings, allow_start=False, environ=NO_DOCKER)
    assert not (tmp_path / "neo4j").exists()


def test_a_neo4j_uri_that_does_not_answer_is_named(tmp_path: Path) -> None:
    (port,) = _free_ports(1)
    settings = _settings(tmp_path, uri=f"bolt://127.0.0.1:{port}")
    with pytest.raises(MemoryUnavailableError, match=f"bolt://127.0.0.1:{port}"):
        find_or_start(settings, environ=NO_DOCKER)


def test_endpoint_never_shows_the_password() -> None:
    endpoint = Neo4jEndpoint(
        uri="bolt://127.0.0.1:7687",
        user="neo4j",
        password="hidden-password",
        database="neo4j",
        how="maven",
        browser_url="http://127.0.0.1:7474/browser/",
        started_here=True,
        pid=1234,
    )
    assert "hidden-password" not in repr(endpoint)
    assert "hidden-password" not in endpoint.describe()
    assert "bolt://127.0.0.1:7687" in endpoint.describe()
    assert "pid 1234" in endpoint.describe()


def test_stop_and_status_when_nothing_runs(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    assert stop(settings) is False
    text = status(settings)
    assert f"bolt://127.0.0.1:{settings.bolt_port}: not answering" in text
    assert "Maven-run server: not running" in text


def test_cli_help_explains_each_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "graph.server.finder", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    for command in ("start", "stop", "status"):
        assert command in done.stdout


def test_cli_exits_2_on_bad_settings(tmp_path: Path) -> None:
    config = tmp_path / "nous.yaml"
    config.write_text("neo4j:\n  bolt_port: 0\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "graph.server.finder", "status", "--config", str(config)],
        cwd=REPO,
        # The file's bad value must be the one read: a NOUS_NEO4J__BOLT_PORT in the test
        # run's environment (a second server for a parallel run) would win over it.
        env={k: v for k, v in os.environ.items() if not k.startswith("NOUS_")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "neo4j.bolt_port" in done.stderr


def test_a_taken_port_is_reported_before_anything_starts(
    tmp_path: Path, java_and_maven: None
) -> None:
    settings = _settings(tmp_path)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", settings.http_port))
        squatter.listen()
        with pytest.raises(Neo4jNotFoundError, match=f"127.0.0.1:{settings.http_port}"):
            find_or_start(settings, environ=NO_DOCKER)
    assert _servers_of(tmp_path / "neo4j") == []


@pytest.fixture
def server_settings(tmp_path: Path) -> Iterator[Neo4jSettings]:
    settings = _settings(tmp_path, start_timeout_s=300.0)
    yield settings
    stop(settings)  # whatever a failed assertion left running


def test_a_start_that_times_out_leaves_no_process(
    server_settings: Neo4jSettings, java_and_maven: None
) -> None:
    # Takes a few seconds (plus the one-time jar fetch): the JVM is started and killed.
    settings = server_settings.model_copy(update={"start_timeout_s": 0.5})
    with pytest.raises(Neo4jNotFoundError, match=r"did not answer within 0\.5 s"):
        find_or_start(settings, environ=NO_DOCKER)
    assert _servers_of(settings.home) == []
    assert not neo4j_maven.pid_file(settings).exists()


def test_slow_maven_server_starts_answers_and_stops(
    server_settings: Neo4jSettings, java_and_maven: None
) -> None:
    """SLOW, about 30 s (plus about 35 s once per machine to fetch the jars).

    A real Neo4j Community from Maven Central on free ports: Bolt answers with
    the password, Browser is served, a second call reuses the server, a wrong
    password is refused clearly, and stop leaves no process and no open port.
    """
    settings = server_settings

    endpoint = find_or_start(settings, environ=NO_DOCKER)

    assert (endpoint.how, endpoint.started_here) == ("maven", True)
    assert endpoint.pid is not None
    assert endpoint.uri == f"bolt://127.0.0.1:{settings.bolt_port}"
    auth = (endpoint.user, endpoint.password)
    with neo4j.GraphDatabase.driver(endpoint.uri, auth=auth) as driver:
        driver.verify_connectivity()
        retention = "db.tx_log.rotation.retention_policy"
        rows, _, _ = driver.execute_query(
            QueryLibrary().get("admin/server_setting").text, name=retention
        )
        assert [r["value"] for r in rows] == ["2 days 1G"]  # the server took Nous's cap
    assert endpoint.browser_url == f"http://127.0.0.1:{settings.http_port}/browser/"
    with urllib.request.urlopen(endpoint.browser_url, timeout=30) as reply:
        assert reply.status == 200

    again = find_or_start(settings, environ=NO_DOCKER)
    assert (again.how, again.started_here, again.pid) == ("maven", False, endpoint.pid)
    wrong = settings.model_copy(update={"password": SecretStr("not-the-password")})
    with pytest.raises(MemoryUnavailableError, match="NEO4J_PASSWORD"):
        find_or_start(wrong, environ=NO_DOCKER)
    assert f"pid {endpoint.pid}" in status(settings)

    assert stop(settings) is True

    with pytest.raises(ProcessLookupError):
        os.kill(endpoint.pid, 0)
    assert not _port_open(settings.bolt_port)
    assert not _port_open(settings.http_port)
    assert not neo4j_maven.pid_file(settings).exists()
    assert stop(settings) is False
