"""The Browser guide is generated from cypher/audit/, styled for every label, served locally."""

from __future__ import annotations

import re
import urllib.request
from html import unescape
from pathlib import Path

from graph.server.maven import browser_guide_conf, render_conf
from graph.settings import Neo4jSettings
from graph.store.queries import QueryLibrary
from scheduler.guide.serve import GuideServer
from scheduler.guide.slides import SLIDES, guide_html
from scheduler.guide.style import LABELS, grass

SCHEMA = QueryLibrary().get("schema/001_constraints").text


def _runnables(html: str) -> list[str]:
    blocks = re.findall(r'<pre class="pre-scrollable code runnable">(.*?)</pre>', html, re.S)
    return [unescape(b) for b in blocks]


def test_every_audit_file_is_on_a_slide_word_for_word() -> None:
    library = QueryLibrary()
    blocks = _runnables(guide_html("nous"))
    for name in library.names("audit"):
        assert library.get(name).text.strip() in blocks, f"{name} is not in the guide"
    titles = [s.title for s in SLIDES]
    assert titles[:2] == ["What the memory holds", "The latest decisions, and why"]
    for title in ("One decision's full story", "Escalations", "Censors", "Episodes"):
        assert title in titles
    assert "Desires, trajectories and heuristics" in titles


def test_an_audit_no_slide_names_still_lands_in_the_guide(tmp_path: Path) -> None:
    (tmp_path / "audit").mkdir()
    text = (
        "// purpose: a new audit\n// params: $agent_id\n// returns: n\n// mode: read\nRETURN 1 AS n"
    )
    (tmp_path / "audit" / "brand_new.cypher").write_text(text)
    for slide in SLIDES:
        for name in slide.audits:
            (tmp_path / "audit" / f"{name}.cypher").write_text(text)
    html = guide_html("nous", QueryLibrary(tmp_path))
    assert "More audits" in html and "brand_new" in html


def test_the_first_slide_sets_the_agent_and_applies_the_style() -> None:
    blocks = _runnables(guide_html("agent-7"))
    assert blocks[0].startswith(':params {agent_id: "agent-7", limit: 25')
    assert blocks[1] == ":style\n" + grass()


def test_every_label_of_the_model_has_a_colour_and_a_caption() -> None:
    labels = set(re.findall(r"FOR \(n:(\w+)\) REQUIRE n\.\w+ IS UNIQUE", SCHEMA))
    assert labels and labels <= set(LABELS)
    style = grass()
    assert "node.Observation {" in style and "caption: '{type} {path}';" in style
    assert "caption: '{type} {confidence}';" in style  # Decision
    assert "caption: '{name}';" in style  # ReasoningStep
    assert "caption: '{target} {success}';" in style  # Execution
    colours = [colour for colour, _ in LABELS.values()]
    assert len(set(colours)) == len(colours)


def test_the_guide_is_served_on_loopback_with_cors() -> None:
    server = GuideServer("nous", 0).start()
    try:
        assert server.url == f"http://localhost:{server.port}/nous.html"
        url = f"http://127.0.0.1:{server.port}"
        with urllib.request.urlopen(f"{url}/nous.html", timeout=10) as reply:
            assert reply.headers["Access-Control-Allow-Origin"] == "*"
            assert "What the memory holds" in reply.read().decode()
        with urllib.request.urlopen(f"{url}/style.grass", timeout=10) as reply:
            assert reply.read().decode() == grass()
        preflight = urllib.request.Request(f"{url}/nous.html", method="OPTIONS")
        with urllib.request.urlopen(preflight, timeout=10) as reply:
            assert reply.status == 204
        assert server._server.server_address[0] == "127.0.0.1"
    finally:
        server.close()


def test_a_neo4j_nous_starts_plays_the_guide_on_connect() -> None:
    settings = Neo4jSettings(guide_port=7499)
    conf = render_conf(settings)
    assert "browser.post_connect_cmd=play http://localhost:7499/nous.html" in conf
    # The name Neo4j 5.26 accepts (checked on a running server; "..._allowlist" is refused).
    assert "browser.remote_content_hostname_whitelist=guides.neo4j.com,localhost,127.0.0.1" in conf
    assert browser_guide_conf(Neo4jSettings(guide_port=None)) == []
