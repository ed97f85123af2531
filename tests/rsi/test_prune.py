"""Prune: property tests (hypothesis) over random heuristic sets, pure and on the real Neo4j."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graph.models import Heuristic, HeuristicStatus, new_id
from graph.server.finder import Neo4jEndpoint
from graph.settings import RSISettings
from graph.store.driver import GraphDriver
from graph.store.heuristics import HeuristicStore
from graph.store.memory import Memory
from graph.store.queries import QueryLibrary
from rsi.prune import Pruner, age_days, choose_prunes
from tests.conftest import graph_driver
from tests.support.recall_seed import SUPPORT_CYPHER

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Case:
    """A random set of heuristics and the pruning settings to apply to it."""

    heuristics: list[dict[str, Any]]
    settings: RSISettings


heuristic_rows = st.fixed_dictionaries(
    {
        "age": st.floats(0, 120, allow_nan=False),
        "usage_count": st.integers(0, 10),
        "helpful": st.integers(0, 8),
        "harmful": st.integers(0, 8),
        "linked": st.booleans(),
    }
)
cases = st.builds(
    lambda rows, cap, margin, usage, age: Case(
        rows,
        RSISettings(
            max_heuristics=cap,
            prune_harm_margin=margin,
            prune_min_usage=usage,
            prune_min_age_days=age,
        ),
    ),
    st.lists(heuristic_rows, max_size=16),
    st.integers(1, 8),
    st.integers(1, 5),
    st.integers(0, 5),
    st.floats(0, 60, allow_nan=False),
)


def _row(
    *, age: float, usage: int = 0, helpful: int = 0, harmful: int = 0, linked: bool = False
) -> dict[str, Any]:
    return {
        "age": age,
        "usage_count": usage,
        "helpful": helpful,
        "harmful": harmful,
        "linked": linked,
    }


def _models(case: Case) -> list[Heuristic]:
    return [
        Heuristic(
            agent_id="a",
            id=f"h{i:02d}",
            at=NOW - timedelta(days=row["age"]),
            domain="code",
            content=f"strategy {i}",
            usage_count=row["usage_count"],
            helpful=row["helpful"],
            harmful=row["harmful"],
            status=HeuristicStatus.ACTIVE,
        )
        for i, row in enumerate(case.heuristics)
    ]


def _check_choices(heuristics: list[Heuristic], chosen: dict[str, str], s: RSISettings) -> None:
    """The properties of one pruning: what was retired (id -> reason) from ``heuristics``."""
    for h in heuristics:
        reason = chosen.get(h.id)
        if reason is None:
            continue
        harmful = h.harmful - h.helpful >= s.prune_harm_margin
        assert (reason == "harmful") == harmful, (h, reason)
        # Nothing younger than the minimum age is pruned for disuse: only if harmful or over cap.
        if age_days(h, NOW) <= s.prune_min_age_days:
            assert reason in {"harmful", "over_cap"}, (h, reason)
        # Nothing used enough is pruned unless harmful or over the cap.
        if h.usage_count >= s.prune_min_usage:
            assert reason in {"harmful", "over_cap"}, (h, reason)
    # Harmful ones always go.
    for h in heuristics:
        if h.harmful - h.helpful >= s.prune_harm_margin:
            assert chosen.get(h.id) == "harmful"
    left = len(heuristics) - len(chosen)
    assert left <= s.max_heuristics  # the cap always holds
    if "over_cap" in chosen.values():
        assert left == s.max_heuristics  # and the cap retires no more than it must


@settings(max_examples=300, deadline=None, database=None)
@given(case=cases)
def test_choices_keep_the_properties(case: Case) -> None:
    heuristics = _models(case)
    choices = choose_prunes(heuristics, case.settings, NOW)
    chosen = {c.heuristic.id: c.reason for c in choices}
    assert len(chosen) == len(choices)
    _check_choices(heuristics, chosen, case.settings)
    remaining = [h for h in heuristics if h.id not in chosen]
    assert choose_prunes(remaining, case.settings, NOW) == []  # twice equals once


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(case=cases)
# Cases random draws may miss: the cap binding on young, used heuristics, and all of the rules
# at once around their boundaries.
@example(case=Case([_row(age=1, usage=5, linked=True)] * 6, RSISettings(max_heuristics=2)))
@example(
    case=Case(
        [
            _row(age=31, usage=0),
            _row(age=29, usage=0),
            _row(age=40, usage=3),
            _row(age=1, harmful=4, helpful=1, linked=True),
            _row(age=1, harmful=3, helpful=1),
            _row(age=2, usage=9),
            _row(age=3, usage=1),
        ],
        RSISettings(max_heuristics=2),
    )
)
def test_pruning_the_graph_keeps_the_properties(neo4j_endpoint: Neo4jEndpoint, case: Case) -> None:
    asyncio.run(_prune_in_graph(neo4j_endpoint, case))


async def _prune_in_graph(endpoint: Neo4jEndpoint, case: Case) -> None:
    driver = graph_driver(endpoint)
    support = GraphDriver(
        endpoint.uri,
        endpoint.user,
        endpoint.password,
        database=endpoint.database,
        queries=_support_queries(),
    )
    await driver.start()
    await support.start()
    memory = Memory(driver, f"test-{new_id().lower()}")
    fixtures = Memory(support, memory.agent_id)
    try:
        await _seed(fixtures, case)
        before = await _state(fixtures)
        store = HeuristicStore(memory)
        pruner = Pruner(store, memory.events, case.settings)

        report = await pruner.run(now=NOW)

        after = await _state(fixtures)
        heuristics = [
            Heuristic.model_validate({**row["heuristic"], "status": "active"})
            for row in before.values()
        ]
        chosen = {i: after[i]["heuristic"]["prune_reason"] for i in report.pruned_ids}
        _check_choices(heuristics, chosen, case.settings)
        assert sorted(report.pruned_ids) == sorted(
            c.heuristic.id for c in choose_prunes(heuristics, case.settings, NOW)
        )
        # Never deleted, and no relationship left dangling or lost.
        assert after.keys() == before.keys()
        for hid, row in after.items():
            assert (row["distilled"], row["applied"]) == (
                before[hid]["distilled"],
                before[hid]["applied"],
            )
            if hid in chosen:
                assert row["heuristic"]["status"] == "pruned"
                assert row["pruned_in"] == [report.run_id] and row["pruned_in_any"] == 1
            else:
                assert row["heuristic"]["status"] == "active" and row["pruned_in_any"] == 0

        again = await pruner.run(now=NOW)  # the same moment: ages on a boundary stay put
        assert again.pruned_ids == []  # pruning twice equals pruning once
        assert await _state(fixtures) == after
    finally:
        await memory.forget()
        await support.close()
        await driver.close()


def _support_queries() -> QueryLibrary:
    # Seeds and checks together: both live under tests/support/cypher.
    return QueryLibrary(SUPPORT_CYPHER)


async def _seed(fixtures: Memory, case: Case) -> None:
    heuristics = [
        {
            "id": new_id(),
            "at": NOW - timedelta(days=row["age"]),
            "domain": "code",
            "content": f"strategy {i}",
            "status": "active",
            "usage_count": row["usage_count"],
            "helpful": row["helpful"],
            "harmful": row["harmful"],
        }
        for i, row in enumerate(case.heuristics)
    ]
    if not heuristics:
        return
    await fixtures.write("seed/heuristics", rows=heuristics)
    linked = [h["id"] for h, row in zip(heuristics, case.heuristics, strict=True) if row["linked"]]
    if not linked:
        return
    [trajectory] = await fixtures.write(
        "seed/trajectories",
        rows=[{"id": new_id(), "at": NOW, "domain": "code", "problem": "p", "success": True}],
    )
    await fixtures.write(
        "seed/distilled",
        rows=[{"heuristic_id": h, "trajectory_id": trajectory["id"]} for h in linked],
    )
    await fixtures.write(
        "seed/applied_decision", rows=[{"id": new_id(), "at": NOW, "heuristic_ids": linked}]
    )


async def _state(fixtures: Memory) -> dict[str, dict[str, Any]]:
    rows = await fixtures.read("checks/heuristics")
    return {r["heuristic"]["id"]: dict(r) for r in rows}
