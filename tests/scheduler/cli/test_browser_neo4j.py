"""``nous browser`` (print or serve the guide) and ``nous neo4j`` (as python -m graph.neo4j)."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from graph.server.finder import Neo4jEndpoint
from scheduler.cli import build_parser, main
from scheduler.cli.browser import _browser
from scheduler.guide.style import grass

EMPTY = Path(__file__).resolve().parents[2] / "support" / "empty.yaml"


def test_browser_prints_the_guide_and_the_style(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["browser", "--print", "guide", "--config", str(EMPTY), "--agent-id", "a1"]) == 0
    guide = capsys.readouterr().out
    assert guide.startswith('<article class="guide">') and "agent_id: &quot;a1&quot;" in guide
    assert main(["browser", "--print", "style", "--config", str(EMPTY)]) == 0
    assert capsys.readouterr().out == grass()


def test_browser_serves_the_guide_until_stopped(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = build_parser().parse_args(["browser", "--port", str(port), "--config", str(EMPTY)])
    stop = threading.Event()
    serving = threading.Thread(target=_browser, args=(args, stop))
    serving.start()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/nous.html", timeout=5) as r:
                    assert "What the memory holds" in r.read().decode()
                    break
            except OSError:
                assert time.monotonic() < deadline, "the guide was never served"
                time.sleep(0.1)
    finally:
        stop.set()
        serving.join(timeout=30)
    assert f":play http://localhost:{port}/nous.html" in capsys.readouterr().out


def test_neo4j_status_is_graph_neo4j_status(
    neo4j_endpoint: Neo4jEndpoint, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["neo4j", "status", "--config", str(EMPTY)]) == 0
    out = capsys.readouterr().out
    assert "Maven-run server:" in out and "jars:" in out
