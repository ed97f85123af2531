"""One spelling of each word: practice and crystallize (American), in code, Cypher, docs and tests.

The British spellings survive only where old stored data is read: the
migration that rewrites them (``cypher/schema/016_american_spelling.cypher``)
and this file, which also shows that migration at work on a memory that still
holds them. No settings key was ever spelled the British way, so no old key
needs to stay readable.
"""

from __future__ import annotations

import re
from pathlib import Path

from graph.models import DesireStatus
from graph.server.finder import Neo4jEndpoint
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.migrate import run_migration
from rsi.report import build_report
from tests.support.recall_seed import Seeder, seeding

REPO = Path(__file__).resolve().parent.parent
SCANNED = ("bench", "cognition", "cypher", "demo", "docs", "graph", "rsi", "scheduler", "tests")
TOP_FILES = ("README.md", "pyproject.toml", "docker-compose.neo4j.yml")
SUFFIXES = {".py", ".cypher", ".md", ".toml", ".yaml", ".yml", ".json", ".jsonl", ".sh", ".txt"}
BRITISH = re.compile(r"practis|crystallis", re.IGNORECASE)
MIGRATION = REPO / "cypher" / "schema" / "016_american_spelling.cypher"
# Where the old spelling must stay: the data it converts from is spelled that way.
ALLOWED = {MIGRATION, Path(__file__).resolve()}


def _scanned_files() -> list[Path]:
    files = [REPO / name for name in TOP_FILES if (REPO / name).is_file()]
    for top in SCANNED:
        files.extend(p for p in (REPO / top).rglob("*") if p.suffix in SUFFIXES and p.is_file())
    return files


def test_nothing_is_spelled_the_british_way() -> None:
    found = []
    for path in _scanned_files():
        if path.resolve() in ALLOWED:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if BRITISH.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not found, "spell practice/crystallize (American):\n" + "\n".join(found)


async def _old_memory(seed: Seeder) -> tuple[list[str], list[str]]:
    """Desires and cycles as the code before the rename wrote them."""
    desires = await seed.nodes(
        "desires",
        {"description": "Practise code: add: sum two numbers", "intensity": 0.5,
         "domain": "code", "origin": "bootstrap", "status": "practised",
         "practice_success": True},
        {"description": "get better at sorting", "intensity": 0.7, "domain": "code",
         "origin": "reflection", "status": "unpractisable"},
        {"description": "Practise ruling, a reflection's words", "intensity": 0.7,
         "domain": "code", "origin": "reflection", "status": "verified"},
    )  # fmt: skip
    cycles = await seed.nodes(
        "rsi_cycles",
        {"processed": 2, "accepted": 1, "practised": 1, "succeeded": 1, "crystallised": 1,
         "practice_origin": "bootstrap"},
        {"processed": 1, "accepted": 0, "practised": 0, "crystallised": 0,
         "skipped": "no verified desire, and no language model to practise with"},
    )  # fmt: skip
    return desires, cycles


async def _properties(seed: Seeder, ids: list[str]) -> list[dict[str, object]]:
    rows = [await seed.fixtures.read("checks/node", id=i) for i in ids]
    return [dict(r[0]["properties"]) for r in rows]


async def test_old_spellings_read_correctly_once_migrated_and_a_second_run_changes_nothing(
    neo4j_endpoint: Neo4jEndpoint, memory: Memory, driver: GraphDriver
) -> None:
    async with seeding(neo4j_endpoint, memory) as seed:
        desires, cycles = await _old_memory(seed)
        await run_migration(driver, MIGRATION, MIGRATION.read_text(encoding="utf-8"))
        migrated = await _properties(seed, desires + cycles)
        await run_migration(driver, MIGRATION, MIGRATION.read_text(encoding="utf-8"))
        assert await _properties(seed, desires + cycles) == migrated

    bootstrap, retired, verified = [await memory.rsi.desire(i) for i in desires]
    assert bootstrap is not None and bootstrap.status == DesireStatus.PRACTICED
    assert bootstrap.description == "Practice code: add: sum two numbers"
    assert retired is not None and retired.status == DesireStatus.UNPRACTICABLE
    # Only a bootstrap desire's own prefix is the product's text; a reflection's words stay.
    assert verified is not None and verified.description.startswith("Practise ruling")
    done = await memory.rsi.desires_with_status(DesireStatus.PRACTICED)
    assert [d.id for d in done] == [desires[0]]

    busy, idle = migrated[len(desires) :]
    assert (busy["practiced"], busy["crystallized"], idle["practiced"]) == (1, 1, 0)
    assert not {"practised", "crystallised"} & (set(busy) | set(idle))
    overall = (await build_report(memory.heuristics, cycles=0)).overall
    assert (overall.cycles, overall.practiced, overall.practicing, overall.bootstrap) == (
        2, 1, 1, 1,
    )  # fmt: skip
    # The reason a cycle did not practice is the product's text: it is counted with today's.
    reason = "no verified desire, and no language model to practice with"
    assert overall.not_practiced == {reason: 1}
