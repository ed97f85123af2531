"""The plugin's eval cases load and grade under the real CLI's `claude plugin eval`.

`claude plugin eval plugin` runs each case twice, with the plugin and without it (its
no-plugin baseline), each a real `claude` child against the scripted Anthropic server of the
tests. The scripted model stands in for a real one only as far as the cases need: it answers
with the package manager its context names (pnpm when the earlier session's rule reached it,
else npm), and it retries a failing command until it has four results or sees a denial. So
the suite shows the cases load, their scaffolds run, their graders score, and that what
separates the arms is what Nous puts in the context or denies. With a real model configured,
`claude plugin eval ./plugin --scaffold --allow-tools Bash --trust-plugin` runs the same cases
(docs/claude-code.md).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from tests.support.anthropic_stub import AnthropicStub, MessagesRequest, ModelTurn
from tests.support.claude_cli import IN_CI, nous_program

REPO = Path(__file__).resolve().parents[4]
CASES = {"rule-agreed-earlier", "repeated-failure-stopped"}
DENIED = "blocks this call"


def _model(request: MessagesRequest) -> ModelTurn:
    text = request.text()
    if "Add the left-pad package" in text:
        told = text.split("UserPromptSubmit hook additional context", 1)[-1]
        rule = "pnpm" in told and "hook additional context" in text
        return ModelTurn.text("pnpm add left-pad" if rule else "npm install left-pad")
    if "cat config/settings.yaml" in text:
        results = request.tool_results()
        if results and DENIED in str(results[-1].get("content")):
            return ModelTurn.text("Nous denied the third identical call; I stopped.")
        if len(results) < 4:
            return ModelTurn.tool(
                "Bash", {"command": "cat config/settings.yaml", "description": "read"}
            )
        return ModelTurn.text("It failed four times.")
    return ModelTurn.text("Done.")


@pytest.fixture
def sandbox() -> None:
    """The eval confines Bash in bubblewrap with socat; without them a case cannot run Bash."""
    missing = [tool for tool in ("bwrap", "socat") if shutil.which(tool) is None]
    if missing:
        message = f"claude plugin eval's sandbox needs {', '.join(missing)}"
        if IN_CI:
            pytest.fail(message + " (CI=true: never skipped)", pytrace=False)
        pytest.skip(message)


async def test_the_cases_load_and_grade_against_the_no_plugin_baseline(
    claude_bin: Path,
    cli_env: dict[str, str],
    tmp_path: Path,
    driver: GraphDriver,
    agent_id: str,
    sandbox: None,
) -> None:
    # Each run's scaffold asks `nous-eval-agent` for a fresh agent, which it writes down here.
    agents = tmp_path / "agents.txt"
    namer = tmp_path / "bin" / "nous-eval-agent"
    namer.parent.mkdir()
    namer.write_text(
        f'#!/bin/sh\nagent="{agent_id}-$$"\necho "$agent" >> "{agents}"\necho "$agent"\n'
    )
    namer.chmod(0o755)
    cli_env.pop("NOUS_AGENT_ID", None)
    cli_env["PATH"] = f"{namer.parent}:{nous_program().parent}:{cli_env['PATH']}"
    result = tmp_path / "result.json"
    command = [
        str(claude_bin), "plugin", "eval", str(REPO / "plugin"), "--trust-plugin", "--runs", "1",
        "--scaffold", "--allow-tools", "Bash", "--no-publish", "--json", str(result),
        "--output-dir", str(tmp_path / "results"), "--report", str(tmp_path / "report.html"),
    ]  # fmt: skip
    try:
        with AnthropicStub(default=_model) as model:
            cli_env["ANTHROPIC_BASE_URL"] = model.base_url
            done = subprocess.run(
                command, cwd=tmp_path, env=cli_env, capture_output=True, text=True, timeout=900
            )
    finally:
        for agent in agents.read_text().split() if agents.exists() else []:
            await Memory(driver, agent).forget()
    assert done.returncode == 0 and result.exists(), (done.stdout[-2000:], done.stderr[-2000:])
    report = json.loads(result.read_text())
    cases = {c["name"]: c for c in report["cases"]}
    assert set(cases) == CASES
    assert report["suite"]["ablation"] == "with-without"
    for name, case in cases.items():
        (with_run,) = case["arms"]["with"]
        (without,) = case["arms"]["without"]
        assert with_run["error"] is None and without["error"] is None, (name, with_run, without)
        assert with_run["graders"] and all(g["passed"] for g in with_run["graders"]), with_run
        assert not all(g["passed"] for g in without["graders"]), (name, without)
        assert case["aggregates"]["delta"] > 0, case["aggregates"]
    assert len(agents.read_text().split()) == 4, "each run (two cases, two arms) its own agent"
