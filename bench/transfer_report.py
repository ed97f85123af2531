"""bench.transfer's result and how it is said: pass@1 per arm and each arm's paired test."""

from __future__ import annotations

from dataclasses import dataclass, field

from bench.transfer_practice import Practice

ARMS = ("plain", "none", "cases", "random cases", "principles")


@dataclass
class TransferResult:
    """pass@1 per arm, the per-problem outcomes, and each arm's paired test against ``none``."""

    model: str
    base_url: str
    strategy_version: str
    strategies: int
    control_kind: str
    problems: list[str]
    passed: dict[str, list[bool]] = field(default_factory=dict)
    pass_at_1: dict[str, float] = field(default_factory=dict)
    mcnemar: dict[str, dict[str, float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    unusable: dict[str, int] = field(default_factory=dict)  # replies that held no code
    prompt_tokens: dict[str, int] = field(default_factory=dict)
    cases_shown: dict[str, int] = field(default_factory=dict)
    # Answers taken from an earlier arm that sent the very same request (temperature 0).
    reused: dict[str, int] = field(default_factory=dict)
    case_bank: int = 0  # active cases the agent held


def format_result(result: TransferResult) -> str:
    """The figures as text."""
    n = len(result.problems)
    lines = [
        f"transfer on {n} held-out HumanEval problems; model {result.model} at {result.base_url}",
        f"principles: {result.strategies} learned ({result.strategy_version}); "
        f"case bank: {result.case_bank} active cases",
    ]
    for arm in (arm for arm in ARMS if arm in result.passed):
        passed = sum(result.passed[arm])
        errors, unusable = result.errors.get(arm, 0), result.unusable.get(arm, 0)
        note = f"; {errors} requests the endpoint failed, asked again" if errors else ""
        note += f"; {unusable} replies held no usable code" if unusable else ""
        note += f"; {result.cases_shown[arm]} cases shown" if result.cases_shown.get(arm) else ""
        note += (
            f"; {result.reused[arm]} the same request as an earlier arm's"
            if result.reused.get(arm)
            else ""
        )
        tokens = result.prompt_tokens.get(arm, 0) / n if n else 0.0
        lines.append(
            f"  pass@1 {arm:<12} {result.pass_at_1[arm]:.3f} ({passed}/{n}); "
            f"{tokens:.0f} prompt tokens per problem{note}"
        )
    for name, test in result.mcnemar.items():
        counts = ", ".join(f"{k} {int(v)}" for k, v in test.items() if k != "p_value")
        lines.append(f"  McNemar {name}: {counts}, exact p = {test['p_value']:.4g}")
    if result.pass_at_1.get("plain"):
        ratio = result.pass_at_1["none"] / result.pass_at_1["plain"]
        lines.append(f"  none / plain: {ratio:.2f} (target >= 0.95)")
    return "\n".join(lines)


def client_errors(practice: Practice | None, result: TransferResult) -> int:
    """Requests that failed at the client: in the arms, the trials and the cycles."""
    errors = sum(result.errors.values())
    if practice is not None:
        errors += sum(t.errors for h in practice.heuristics for t in h.trials)
        errors += sum(1 for c in practice.cycles if c.error and "LLM" in c.error)
    return errors
