"""The guide in a real Neo4j Browser, driven through headless Chromium and ChromeDriver.

Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
``selenium``. The test opens the Browser served by the test Neo4j, connects,
plays the guide (served on 127.0.0.1 by :class:`GuideServer`; its URL names
``localhost``, which every Neo4j 5 Browser's default allow-list accepts, so
the test Neo4j needs no special conf), sets the parameters and the style
from the first slide, runs the latest decision as a graph from the second,
and checks what rendered: the nodes with their captions. The screenshot is
kept in ``.nous/artifacts/browser-guide.png``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graph.server.finder import Neo4jEndpoint
from scheduler.guide.serve import GuideServer
from tests.support.recall_seed import Seeder
from tests.support.story_seed import PATH, write_story

REPO = Path(__file__).resolve().parents[3]
ARTIFACT = REPO / ".nous" / "artifacts" / "browser-guide.png"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
WAIT_S = 60


def _missing(what: str) -> None:
    if IN_CI:
        pytest.fail(f"{what} (CI=true: the browser test never skips)", pytrace=False)
    pytest.skip(what)


@pytest.fixture
def chrome() -> Iterator[Any]:
    """A headless Chromium driven by ChromeDriver."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed (pip install -e '.[dev]')")
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if binary is None or driver_path is None:
        _missing("chromium and chromedriver are not installed (apt-get install chromium-driver)")
    options = Options()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.add_argument("--window-size=1400,1000")
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    yield driver
    driver.quit()


async def test_the_guide_plays_and_a_slide_query_renders_in_neo4j_browser(
    chrome: Any, neo4j_endpoint: Neo4jEndpoint, agent_id: str, seeder: Seeder
) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    if neo4j_endpoint.browser_url is None:
        _missing(f"the test Neo4j ({neo4j_endpoint.uri}) serves no Neo4j Browser")
    story = await write_story(seeder)
    guide = GuideServer(agent_id, 0).start()
    wait = WebDriverWait(chrome, WAIT_S)

    def body() -> str:
        return str(chrome.find_element(By.TAG_NAME, "body").text)

    def run_editor() -> None:
        chrome.find_element(By.CSS_SELECTOR, "[data-testid=editor-Run]").click()

    def runnable(starting: str) -> list[Any]:
        # The blocks on screen that start so (Selenium's text is "" for a hidden slide's).
        # Under load a frame can show twice for a moment (the guide's, as it renders, and
        # again): the stream lists the newest frame first, so the first block is the one.
        found = []
        for block in chrome.find_elements(By.CSS_SELECTOR, "pre.runnable"):
            try:
                if block.is_displayed() and block.text.lstrip().startswith(starting):
                    found.append(block)
            except StaleElementReferenceException:  # re-rendered while we looked
                continue
        return found

    def run_block(starting: str) -> None:
        # Waits for the slide that holds the block, however slowly it renders.
        first = wait.until(lambda d: runnable(starting))[0]
        wait.until(lambda d: first.is_enabled())
        first.click()  # puts its text into the editor
        run_editor()

    try:
        chrome.get(f"{neo4j_endpoint.browser_url}?dbms={neo4j_endpoint.uri}")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=connect]"))
        chrome.find_element(By.CSS_SELECTOR, "[data-testid=username]").send_keys(
            neo4j_endpoint.user
        )
        chrome.find_element(By.CSS_SELECTOR, "[data-testid=password]").send_keys(
            neo4j_endpoint.password
        )
        chrome.find_element(By.CSS_SELECTOR, "[data-testid=connect]").click()
        wait.until(lambda d: "You are connected as user" in body())

        # Played twice: two frames of the guide on screen at once, as a loaded machine once
        # showed (a test that picked "the one :params block" then found two).
        for shown in (1, 2):
            editor = chrome.find_element(By.CSS_SELECTOR, ".monaco-editor textarea")
            chrome.execute_script("arguments[0].focus()", editor)
            editor.send_keys(f":play {guide.url}")
            run_editor()
            wait.until(lambda d, shown=shown: len(runnable(":params")) == shown)
        assert "What the memory holds" in body()
        assert f'agent_id: "{agent_id}"' in body()

        run_block(":params")
        # The :params frame shows the parameters it set.
        wait.until(lambda d: f'"agent_id": "{agent_id}"' in body())
        run_block(":style")
        # The first next-slide button is the newest guide frame's, as run_block's block is.
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=nextSlide]"))
        chrome.find_element(By.CSS_SELECTOR, "[data-testid=nextSlide]").click()
        wait.until(lambda d: "The latest decisions, and why" in body())
        # A table: the latest decisions, with $limit as Browser's :params sets it (a float).
        run_block("// purpose: the agent's latest decisions")
        wait.until(lambda d: "Started streaming 2 records" in body())
        assert '"knowledge/notes.md"' in body() and '"analyze_knowledge"' in body()
        run_block("// purpose: the latest decision as a graph")

        def captions() -> list[str]:
            # One caption per node; Browser wraps a long one over several <text> lines.
            nodes = chrome.find_elements(By.CSS_SELECTOR, "svg g.node")
            return [" ".join(t.text for t in n.find_elements(By.TAG_NAME, "text")) for n in nodes]

        wait.until(lambda d: "DECIDE" in captions())
        shown = captions()

        def caption(start: str) -> bool:
            # A caption too long for its circle ends in "…".
            return any(c == start or (c.endswith("…") and start.startswith(c[:-1])) for c in shown)

        # The style's captions: a ReasoningStep by its name, the Decision by type and confidence,
        # an Execution by target and success, the Observation by type and path.
        for step in ("OBSERVE", "CATEGORIZE", "MATCH_PATTERN", "EVALUATE", "DECIDE"):
            assert caption(step), shown
        assert caption("act 0.82"), shown
        assert caption("claude_code false") and caption("claude_code true"), shown
        assert caption(f"file_modified {PATH}"), shown
        assert not any(story.decision_id in c for c in shown)  # ids are not the captions
    finally:
        # Kept whatever happened: what the Browser showed is the evidence either way.
        ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
        chrome.save_screenshot(str(ARTIFACT))
        guide.close()
