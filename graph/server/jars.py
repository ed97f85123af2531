"""The jars of Neo4j Community (and Neo4j Browser), fetched once from Maven Central.

One folder per Neo4j version, ``<cache_dir>/neo4j-<version>/lib`` (the
Browser in its own folder, so it can be left out), filled by
``mvn dependency:copy-dependencies`` from a generated pom: no Java code of
ours is involved. A marker file says a fetch completed, so an interrupted
fetch is simply fetched again.
"""

from __future__ import annotations

import fcntl
import logging
import re
import shutil
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from xml.sax.saxutils import escape

from graph.errors import Neo4jNotFoundError, SettingsError
from graph.settings import Neo4jSettings

_log = logging.getLogger(__name__)

# Pinned because an unpinned prefix resolves to whatever the local Maven's
# super-POM names (2.8 on Maven 3.8), which differs between machines.
DEPENDENCY_PLUGIN_VERSION = "3.6.1"
_FETCHED = "fetched"
_FETCH_TIMEOUT_S = 900.0
_SAFE_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._-]*$")


def server_jars_dir(settings: Neo4jSettings) -> Path:
    """The folder of the fetch of ``settings.version`` (its ``lib`` holds the jars)."""
    return settings.cache_dir.expanduser() / f"neo4j-{safe_version(settings.version, 'version')}"


def render_pom(group_id: str, artifact_id: str, version: str) -> str:
    """A throwaway POM whose only purpose is ``mvn dependency:copy-dependencies``."""
    g, a, v = escape(group_id), escape(artifact_id), escape(version)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by Nous (graph/server/maven.py) to fetch {g}:{a}:{v} and its jars. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.nous</groupId><artifactId>fetch-{a}</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version></dependency>
  </dependencies>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId>
    <version>{DEPENDENCY_PLUGIN_VERSION}</version>
  </plugin></plugins></build>
</project>
"""


def jars_cached(settings: Neo4jSettings) -> bool:
    """Whether the jars of ``settings.version`` were fetched completely."""
    return (server_jars_dir(settings) / _FETCHED).exists()


def fetch_jars(settings: Neo4jSettings, environ: Mapping[str, str]) -> list[Path]:
    """The jar folders for the classpath, fetching what is not cached yet.

    A Browser that cannot be fetched is left out with a warning: the memory
    works without it.
    """
    server = server_jars_dir(settings)
    folders = [_fetch(server, ("org.neo4j", "neo4j", settings.version), environ, transitive=True)]
    if settings.browser_version is not None:
        bv = safe_version(settings.browser_version, "browser_version")
        coordinates = ("org.neo4j.client", "neo4j-browser", bv)
        browser = settings.cache_dir.expanduser() / f"neo4j-browser-{bv}"
        try:
            folders.append(_fetch(browser, coordinates, environ, transitive=False))
        except Neo4jNotFoundError as exc:
            _log.warning("Neo4j Browser %s left out: %s", bv, exc)
    return folders


def _fetch(
    folder: Path, coordinates: tuple[str, str, str], environ: Mapping[str, str], *, transitive: bool
) -> Path:
    lib = folder / "lib"
    if (folder / _FETCHED).exists():
        return lib
    folder.mkdir(parents=True, exist_ok=True)
    with locked(folder / ".lock"):
        if (folder / _FETCHED).exists():  # another process fetched it while we waited
            return lib
        mvn = shutil.which("mvn", path=environ.get("PATH", ""))
        if mvn is None:
            raise Neo4jNotFoundError("mvn (Maven) was not found on PATH; install Maven")
        shutil.rmtree(lib, ignore_errors=True)  # what an interrupted fetch left
        (folder / "pom.xml").write_text(render_pom(*coordinates), encoding="utf-8")
        command = [mvn, "-q", "-B", "-f", str(folder / "pom.xml")]
        command += ["dependency:copy-dependencies", f"-DoutputDirectory={lib}"]
        if not transitive:
            command.append("-DexcludeTransitive=true")
        name, log = ":".join(coordinates), folder / "fetch.log"
        _log.info("fetching %s from Maven Central into %s", name, lib)
        started = time.monotonic()
        with log.open("wb") as out:
            try:
                code = subprocess.run(
                    command, stdout=out, stderr=subprocess.STDOUT, env=dict(environ),
                    timeout=_FETCH_TIMEOUT_S, check=False,
                ).returncode  # fmt: skip
            except subprocess.TimeoutExpired:
                code = -1
        if code != 0 or not any(lib.glob("*.jar")):
            raise Neo4jNotFoundError(
                f"mvn could not fetch {name} (exit {code}); see {log}:\n{last_lines(log)}"
            )
        (folder / _FETCHED).write_text(f"{name}\n", encoding="utf-8")
        _log.info("fetched %s in %.1f s", name, time.monotonic() - started)
    return lib


@contextmanager
def locked(path: Path) -> Iterator[None]:
    # Two daemons (or pytest workers) starting at once must not fetch into one folder.
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def safe_version(value: str, key: str) -> str:
    # The version becomes a folder name: no separators, no "..".
    if not _SAFE_VERSION.fullmatch(value) or ".." in value:
        raise SettingsError(f"neo4j.{key}: {value!r} is not a Maven version")
    return value


def last_lines(path: Path, count: int = 20) -> str:
    """The last ``count`` lines of a log file, or "" when it cannot be read."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[-count:])
