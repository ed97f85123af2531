"""A folder's own templates file runs no command until trusted (issue 56, cases 4 and 5).

A real daemon (``nous run``'s ``graph.daemon``, live: executors not in dry
run) on a folder that carries ``.nous/templates.yaml`` whose command is
``sh -c 'id > FILE'``, FILE outside the folder. Before, it ran as soon as a
file changed (and at the first index sync); now the decision is recorded as
a dry run and one escalation says what to run. ``nous templates trust``
makes it run.
"""

from __future__ import annotations

import hashlib
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from cognition.act.trust import TrustStore
from graph.errors import SettingsError
from graph.settings import load_settings
from graph.store.memory import Memory
from scheduler.cli import main
from scheduler.compose.trust import load_trusted_templates
from tests.support.daemon import Daemon
from tests.support.eventually import eventually

REPO = Path(__file__).resolve().parents[2]
EMPTY = REPO / "tests" / "support" / "empty.yaml"
TEMPLATES = """\
templates:
  record_who_runs:
    version: 1
    title: Record who runs
    trigger:
      observation_types: [file_created, file_modified]
      path_patterns: ["notes/**"]
    target: command
    command: ["sh", "-c", "id > {out}"]
    prompt_template: |
      Changed: {{{{ path }}}}
    max_retries: 0
"""


def _clone(tmp_path: Path) -> tuple[Path, Path]:
    """A folder carrying its own templates file, and the file its command would write."""
    root = tmp_path / "clone"
    (root / ".nous").mkdir(parents=True)
    (root / "notes").mkdir()
    (root / "notes" / "old.md").write_text("there before the start\n")
    out = tmp_path / "pwned"
    (root / ".nous" / "templates.yaml").write_text(TEMPLATES.format(out=out))
    return root, out


async def _executions(memory: Memory, path: str) -> list[dict[str, object]]:
    decisions = await memory.read("audit/recent_decisions", limit=50)
    found: list[dict[str, object]] = []
    for row in decisions:
        if row["path"] == path and row["type"] == "act":
            found += await memory.read("audit/executions_for_decision", decision_id=row["id"])
    return found


async def test_an_untrusted_templates_file_runs_nothing_until_trusted(
    tmp_path: Path, memory: Memory, start_daemon: Callable[..., Daemon]
) -> None:
    root, out = _clone(tmp_path)
    live = {"NOUS_EXECUTORS__DRY_RUN": "false"}
    daemon = start_daemon(root, **live)
    daemon.wait_for("index sync:")
    (root / "notes" / "new.md").write_text("a change\n")

    async def recorded() -> bool:
        return bool(await _executions(memory, "notes/new.md"))

    await eventually(recorded, "the decision on notes/new.md executed", timeout_s=60)
    [execution] = await _executions(memory, "notes/new.md")
    assert not out.exists()  # nothing ran
    assert execution["dry_run"] is True  # recorded as in a dry run
    assert "templates not trusted: never trusted" in daemon.output()  # the banner says why
    escalations = await memory.read("audit/open_escalations", limit=10)
    [untrusted] = [e for e in escalations if e["reason"] == "untrusted templates file"]
    assert f"nous templates trust --root {root}" in str(untrusted["message"])
    assert daemon.stop(signal.SIGTERM) == 0
    assert not out.exists()

    assert main(["templates", "trust", "--root", str(root), "--config", str(EMPTY)]) == 0
    trusted = start_daemon(root, **live)
    trusted.wait_for("index sync:")
    assert "not trusted" not in trusted.output()
    (root / "notes" / "later.md").write_text("another change\n")

    async def ran() -> bool:
        return out.exists() and "uid=" in out.read_text()

    await eventually(ran, "the trusted command ran", timeout_s=60)
    assert trusted.stop(signal.SIGTERM) == 0
    # Once per start while untrusted: the trusted start escalated nothing more.
    escalations = await memory.read("audit/open_escalations", limit=10)
    assert [e["reason"] for e in escalations].count("untrusted templates file") == 1


async def test_a_trusted_file_that_changed_runs_nothing_again(
    tmp_path: Path, memory: Memory, start_daemon: Callable[..., Daemon]
) -> None:
    root, out = _clone(tmp_path)
    assert main(["templates", "trust", "--root", str(root), "--config", str(EMPTY)]) == 0
    own = root / ".nous" / "templates.yaml"
    own.write_text(own.read_text().replace("Record who runs", "Record who runs now"))
    daemon = start_daemon(root, NOUS_EXECUTORS__DRY_RUN="false")
    daemon.wait_for("index sync:")
    assert "templates not trusted: changed since it was trusted" in daemon.output()
    (root / "notes" / "new.md").write_text("a change\n")

    async def recorded() -> bool:
        return bool(await _executions(memory, "notes/new.md"))

    await eventually(recorded, "the decision on notes/new.md executed", timeout_s=60)
    assert daemon.stop(signal.SIGTERM) == 0
    assert not out.exists()


def test_the_text_trusted_is_the_text_loaded(tmp_path: Path) -> None:
    root, _ = _clone(tmp_path)
    own = root / ".nous" / "templates.yaml"
    settings = load_settings(EMPTY, overrides={"watch.root": str(root)})
    registry, trust = load_trusted_templates(settings, root)
    assert registry.names() == ["record_who_runs"] and not trust.trusted
    assert trust.digest == hashlib.sha256(own.read_bytes()).hexdigest()
    TrustStore(settings.trust_dir, root).trust(own)
    assert load_trusted_templates(settings, root)[1].trusted
    own.write_text("templates:\n  broken: [\n")
    with pytest.raises(SettingsError, match=str(own)):
        load_trusted_templates(settings, root)
