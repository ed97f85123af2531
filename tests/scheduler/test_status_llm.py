"""The status line and the banner carry the LLM's state, the banner each thing once."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

from cognition.act.templates import load_templates
from cognition.llm_state import LLMState
from graph.settings import Settings
from scheduler.banner import print_banner, reasoning
from scheduler.jobs import StatusLine


def test_the_status_line_says_what_the_llm_does() -> None:
    state = LLMState(base_url="http://127.0.0.1:1234/v1", answers=True, served_model="smol")
    state.reply_format = "json_object_schema"
    state.record_steps(by_llm=9, fell_back=1)
    ingestor = SimpleNamespace(
        stats=SimpleNamespace(recorded=3, noise_dropped=0, last_error=None),
        queue_depth=0,
        spool_status=lambda: "",
    )
    status = StatusLine(
        ingestor,  # type: ignore[arg-type]
        SimpleNamespace(last_error=None),  # type: ignore[arg-type]
        out=io.StringIO(),
        llm=state.describe,
    )
    line = status.render()
    assert "llm answers · model smol · format json_object_schema" in line
    assert "fell back 10% of 10 steps in the last hour" in line


def test_the_banner_names_the_deliberation_mode() -> None:
    settings = Settings()
    settings.reasoner = "auto"
    assert "(single_call)" in reasoning(settings)
    settings.llm.deliberation = "stepwise"
    assert "(stepwise)" in reasoning(settings)


def test_the_banner_says_the_llm_once() -> None:
    settings = Settings()
    settings.reasoner = "auto"
    state = LLMState(base_url=settings.llm.base_url, answers=True, served_model="smol")
    runtime = SimpleNamespace(
        llm=SimpleNamespace(state=state),
        templates=load_templates(None),
        rsi=SimpleNamespace(strategies=SimpleNamespace(current=SimpleNamespace(strategy_ids=()))),
    )
    nous = SimpleNamespace(
        settings=settings,
        endpoint=SimpleNamespace(browser_url=None, describe=lambda: "Neo4j"),
        root=Path("/root"),
        runtime=runtime,
        trust=None,  # the shipped templates: nothing to trust
    )
    out = io.StringIO()
    print_banner(nous, ["decision loop (every 2 s)"], out=out, llm=True)  # type: ignore[arg-type]
    lines = out.getvalue().splitlines()
    [llm] = [line for line in lines if line.startswith("  llm ")]
    assert f"{settings.llm.base_url} model {settings.llm.model}: answers · model smol" in llm
    [thinking] = [line for line in lines if line.startswith("  thinking ")]
    assert settings.llm.base_url not in thinking  # said once, on the llm line
    [actions] = [line for line in lines if line.startswith("  actions ")]
    assert "6 templates (" in actions and "templates.yaml)" in actions  # and where they came from
