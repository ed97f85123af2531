"""Settings and template files that would exhaust or crash a loader are refused (issue 7).

Each hostile file is given to the real daemon in a child process, which must
exit 2 within 5 s, name the file, stay under 200 MB and print no YAML
snippet (so a secret next to a syntax error is never echoed).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from graph.errors import SettingsError
from graph.settings import load_settings

REPO = Path(__file__).resolve().parents[2]
LIMIT_S = 5.0
LIMIT_RSS_KB = 200 * 1024
SECRET = "hunter2-do-not-print"

# Nine levels of nine references: 9**9 leaves once the aliases are walked.
ALIAS_BOMB = "\n".join(
    [
        "l0: &l0 {" + ", ".join(f"k{i}: lol" for i in range(9)) + "}",
        *(
            f"l{n}: &l{n} {{" + ", ".join(f"k{i}: *l{n - 1}" for i in range(9)) + "}"
            for n in range(1, 9)
        ),
        "templates: {bomb: *l8}",
        "",
    ]
)
DEEP = "watch: " + "[" * 3000 + "]" * 3000 + "\n"
DEEP_TEMPLATES = "templates:\n  x: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n"
UNCLOSED_SECRET = f'neo4j:\n  password: "{SECRET}\n  user: neo4j\n'


def _file(text: str) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        path = folder / "hostile.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    return make


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.yaml"
    os.mkfifo(path)
    return path


def _zero(_: Path) -> Path:
    return Path("/dev/zero")


def _big(folder: Path) -> Path:
    path = folder / "big.yaml"
    path.write_text("# padding\n" * 200_000, encoding="utf-8")
    return path


HOSTILE: dict[str, Callable[[Path], Path]] = {
    "alias bomb": _file(ALIAS_BOMB),
    "deep nesting": _file(DEEP),
    "deep templates": _file(DEEP_TEMPLATES),
    "dev zero": _zero,
    "fifo": _fifo,
    "over the size cap": _big,
    "secret on a syntax error": _file(UNCLOSED_SECRET),
}


# Runs the daemon and writes its peak RSS (KiB) to the file named first. A child's
# ru_maxrss starts from the high-water mark of the process that spawned it, so measured
# from the test run (hundreds of MB late in a suite) it says nothing of the daemon; this
# probe is a bare interpreter, far below the limit.
RSS_PROBE = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[2:]).returncode\n"
    "with open(sys.argv[1], 'w') as out:\n"
    "    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
    "sys.exit(code)\n"
)


def _run_daemon(
    args: list[str], tmp_path: Path
) -> tuple[subprocess.CompletedProcess[str], float, int]:
    """The daemon's run on ``tmp_path`` with ``args``, how long it took, its peak RSS in KiB."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NOUS_", "NEO4J_"))}
    env["PYTHONPATH"] = str(REPO)
    # The settings would otherwise look for Neo4j; every case here must stop before that.
    env["NEO4J_URI"] = "bolt://127.0.0.1:9"
    rss_file = tmp_path.parent / f"{tmp_path.name}.rss"
    daemon = [sys.executable, "-m", "graph.daemon", "--root", str(tmp_path), *args]
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, str(rss_file), *daemon],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
        check=False,
    )
    return done, time.monotonic() - started, int(rss_file.read_text())


def _the_folders_own(case: str, folder: Path) -> Path:
    """The hostile file as the watched folder's .nous/templates.yaml, found with no setting."""
    target = folder / ".nous" / "templates.yaml"
    target.parent.mkdir()
    hostile = HOSTILE[case](folder)
    if hostile.is_file() and not hostile.is_symlink():
        hostile.replace(target)
    elif case == "fifo":
        os.mkfifo(target)
    else:  # /dev/zero, by a link
        target.symlink_to(hostile)
    return target


@pytest.mark.parametrize("case", sorted(HOSTILE))
@pytest.mark.parametrize("role", ["settings", "templates", "folder's templates"])
def test_hostile_file_exits_2_fast_and_small(case: str, role: str, tmp_path: Path) -> None:
    if role == "folder's templates":
        hostile, args = _the_folders_own(case, tmp_path), []
    else:
        hostile = HOSTILE[case](tmp_path)
    if role == "settings":
        args = ["--config", str(hostile)]
    elif role == "templates":
        config = tmp_path / "nous.yaml"
        config.write_text(f"templates_file: {hostile}\n", encoding="utf-8")
        args = ["--config", str(config)]
    done, took, peak_kb = _run_daemon(args, tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert str(hostile) in done.stderr
    assert "Traceback" not in done.stderr
    assert took < LIMIT_S, f"took {took:.1f} s"
    assert peak_kb < LIMIT_RSS_KB, f"the daemon peaked at {peak_kb} KiB"
    assert SECRET not in done.stderr and SECRET not in done.stdout


def test_syntax_error_in_settings_names_line_but_prints_no_snippet(tmp_path: Path) -> None:
    path = _file(UNCLOSED_SECRET)(tmp_path)
    with pytest.raises(SettingsError) as caught:
        load_settings(path, environ={})
    message = str(caught.value)
    assert str(path) in message and "line" in message
    assert SECRET not in message


def test_an_alias_is_refused_with_its_line(tmp_path: Path) -> None:
    path = _file("watch: &w {debounce_ms: 100}\nsense: *w\n")(tmp_path)
    with pytest.raises(SettingsError, match=r"hostile\.yaml.*alias"):
        load_settings(path, environ={})


def test_an_alias_bomb_in_the_environment_is_refused() -> None:
    bomb = "[&a [1,1,1,1,1,1,1,1,1], *a, *a]"
    with pytest.raises(SettingsError, match="NOUS_WATCH__IGNORE_PATTERNS"):
        load_settings(
            REPO / "tests" / "support" / "empty.yaml",
            environ={"NOUS_WATCH__IGNORE_PATTERNS": bomb},
        )


def test_top_level_settings_come_from_the_environment() -> None:
    settings = load_settings(
        REPO / "tests" / "support" / "empty.yaml",
        environ={
            "NOUS_REASONER": "rules",
            "NOUS_LOG_LEVEL": "DEBUG",
            "NOUS_TEMPLATES_FILE": "/tmp/t.yaml",
            "NOUS_AGENT_ID": "env-agent",
            "NOUS_UNRELATED": "ignored",
        },
    )
    assert settings.reasoner == "rules"
    assert settings.log_level == "DEBUG"
    assert str(settings.templates_file) == "/tmp/t.yaml"
    assert settings.agent_id == "env-agent"


def test_a_bad_top_level_environment_value_names_the_variable() -> None:
    with pytest.raises(SettingsError, match="environment variable NOUS_REASONER"):
        load_settings(REPO / "tests" / "support" / "empty.yaml", environ={"NOUS_REASONER": "magic"})
