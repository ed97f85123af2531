"""Every .cypher file loads, says what it is, and EXPLAINs; recall and audit reads use indexes."""

from __future__ import annotations

from typing import Any

import pytest

from graph.errors import QueryNotFoundError
from graph.store.driver import GraphDriver
from graph.store.queries import QueryLibrary

LIBRARY = QueryLibrary()
QUERIES = [n for n in LIBRARY.names() if not n.startswith("schema/")]
# Operators that read a whole label, the whole graph, or a whole index (every agent's
# entries) instead of seeking the entries a query needs.
SCANS = {"NodeByLabelScan", "AllNodesScan", "DirectedAllRelationshipsScan", "NodeIndexScan"}


@pytest.mark.parametrize("name", LIBRARY.names())
def test_header_says_purpose_params_and_returns(name: str) -> None:
    query = LIBRARY.get(name)
    for key in ("purpose", "params", "returns"):
        assert query.headers.get(key), f"{query.path}: missing '// {key}:' header"


@pytest.mark.parametrize("name", QUERIES)
async def test_every_query_explains(driver: GraphDriver, name: str) -> None:
    plan = await driver.explain(name)
    assert plan.get("operatorType"), f"{name}: EXPLAIN returned no plan"


INDEXED_READS = [
    n
    for n in QUERIES
    if n.split("/")[0]
    in {
        "recall",
        "audit",
        "observe",
        "decide",
        "rsi",
        "chat",
        "embeddings",
        "cases",
        "decisions",
        "transcripts",
        "test_runs",
    }
    and LIBRARY.get(n).mode == "read"
]


@pytest.mark.parametrize("name", INDEXED_READS)
async def test_reads_use_an_index(driver: GraphDriver, name: str) -> None:
    operators = _operators(await driver.explain(name))
    assert not operators & SCANS, f"{name} scans a whole label: {sorted(operators & SCANS)}"


def test_names_cannot_leave_the_cypher_folder() -> None:
    for bad in ("../pyproject", "observe/../../x", "single", "/etc/passwd"):
        with pytest.raises(QueryNotFoundError):
            LIBRARY.get(bad)


def _operators(plan: dict[str, Any]) -> set[str]:
    names = {str(plan.get("operatorType", "")).split("@")[0]}
    for child in plan.get("children", []):
        names |= _operators(child)
    return names
