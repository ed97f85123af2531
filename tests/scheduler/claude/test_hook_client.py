"""The hook's lean first step: its arguments read by hand, its imports kept to a bare minimum."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scheduler.claude.hook_client import HookArguments, main, parse_hook_arguments
from tests.support.claude_cli import nous_program

# What the hook process must not load before it asks the daemon: each costs it a visible part
# of a bare interpreter's start (issue 18's target is 3x `python -c pass` for the whole hook).
HEAVY = ("argparse", "threading", "typing", "tempfile", "socket", "asyncio", "pydantic", "neo4j")
_LOADED = "import sys, json; print(json.dumps(sorted(sys.modules)))"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        pytest.param(["Stop", "--root", "/p"], HookArguments("Stop", "/p"), id="root"),
        pytest.param(["Stop", "--root=/p q"], HookArguments("Stop", "/p q"), id="root-equals"),
        pytest.param(
            ["Stop", "--config", "x.yaml"], HookArguments("Stop", None, "x.yaml"), id="config"
        ),
        pytest.param(
            ["--agent-id=a", "Stop"], HookArguments("Stop", None, None, "a"), id="agent-first"
        ),
        pytest.param(
            ["Stop", "--root", "/p", "--root", "/q"], HookArguments("Stop", "/q"), id="twice"
        ),
    ],
)
def test_one_parser_reads_every_argument(argv: list[str], expected: HookArguments) -> None:
    assert parse_hook_arguments(argv) == expected


def test_no_root_means_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert parse_hook_arguments(["SessionEnd"]).root == str(tmp_path)
    assert not parse_hook_arguments(["SessionEnd"]).alone
    assert parse_hook_arguments(["SessionEnd", "--agent-id", "a"]).alone


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["NoSuchEvent"], "invalid choice"),
        ([], "required: event"),
        (["Stop", "--bogus"], "unrecognized arguments"),
        (["Stop", "Stop"], "unrecognized arguments"),
        (["Stop", "--root"], "expected one argument"),
        (["Stop", "--root", "--config"], "expected one argument"),
        (["Stop", "--root="], "non-empty"),
    ],
)
def test_bad_arguments_are_explained_and_exit_0(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0  # exit 2 would block a PreToolUse call
    err = capsys.readouterr().err
    assert said in err and err.startswith("nous hook: error:")


def _imports(module: object) -> set[str]:
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_hook_path_has_one_parser_and_one_watchdog() -> None:
    """Issue 26: no argparse, no timer thread, and cli/hook.py hands over values, not argv."""
    import inspect

    import scheduler.claude.hook_client as client
    import scheduler.claude.hooks as alone
    import scheduler.cli.hook as command

    for module in (client, alone):
        assert not _imports(module) & {"argparse", "threading"}
    assert "scheduler.claude.hook_client" not in _imports(alone), "no circle"
    assert "argv" not in inspect.getsource(command._hook)


def test_the_client_loads_nothing_heavy_before_it_asks() -> None:
    def loaded(code: str) -> set[str]:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
        return set(json.loads(done.stdout.decode().splitlines()[-1]))

    bare = loaded(_LOADED)
    client = loaded(
        "from scheduler.cli import main\nimport scheduler.claude.hook_client\n" + _LOADED
    )
    added = client - bare
    assert "scheduler.claude.hook_client" in added
    assert sorted(m for m in HEAVY if m in added) == []


def test_an_endless_stdin_is_refused_at_once_in_bounded_memory(tmp_path: Path) -> None:
    """Issue 24: ``/dev/zero`` as stdin grew the hook to 1.86 GB before its watchdog."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "started = time.monotonic()\n"
        "with open('/dev/zero', 'rb') as zero:\n"
        "    done = subprocess.run(sys.argv[1:], stdin=zero, capture_output=True, timeout=60)\n"
        "took = time.monotonic() - started\n"
        "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(done.returncode, rss, took, repr(done.stdout), done.stderr.decode())\n"
    )
    hook = [str(nous_program()), "hook", "UserPromptSubmit", "--root", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, "-c", probe, *hook], capture_output=True, text=True, timeout=90, check=True
    )
    code, rss_kb, took, out, err = done.stdout.split(" ", 4)
    assert (code, out) == ("0", "b''")
    assert "payload over 4194304 bytes" in err and "nothing added" in err
    assert int(rss_kb) < 100 * 1024, f"{rss_kb} KiB"  # the interpreter and 4 MiB, not gigabytes
    assert float(took) < 10, "refused at once, not at the watchdog's 15 s"


# The console script's code with an exit handler and an object freed only by the interpreter's
# teardown, each leaving a mark.
_MARKS = """
import atexit, os, sys
marks = sys.argv.pop(1)
atexit.register(lambda: open(os.path.join(marks, "exit-handlers"), "w").close())
import gc
def collector(path=os.path.join(marks, "collector")):
    with open(path, "w") as out:
        out.write(str(gc.isenabled()))
atexit.register(collector)
class Freed:
    def __del__(self, path=os.path.join(marks, "teardown"), open=open):  # late: bound now
        open(path, "w").close()
kept = Freed()
from scheduler.cli import entry_point
sys.argv = ["nous", *sys.argv[1:]]
entry_point()
"""


@pytest.mark.parametrize(
    ("argv", "hook"),
    [
        pytest.param(["hook", "NoSuchEvent"], True, id="a-hook"),
        pytest.param(["hook", "--help"], False, id="its-help"),
    ],
)
def test_a_hooks_process_runs_its_exit_handlers_and_skips_the_teardown(
    tmp_path: Path, argv: list[str], hook: bool
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _MARKS, str(tmp_path), *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert (tmp_path / "exit-handlers").exists()
    # A hook's process leaves as soon as it answered (the teardown costs it about a bare
    # interpreter's start); any other command exits as usual.
    assert (tmp_path / "teardown").exists() is not hook
    # A hook's process runs without the cyclic collector (graph.store.lean); any other keeps it.
    assert (tmp_path / "collector").read_text() == str(not hook)
    said = done.stderr if hook else done.stdout
    assert ("invalid choice" if hook else "usage: nous hook") in said  # flushed before leaving
