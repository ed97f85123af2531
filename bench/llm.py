"""Decisions through a real local LLM: calls, tokens and wall time per decision, per mode.

    python -m bench.llm --llama-python /work/llm/venv/bin/python [--decisions 20]
    python -m bench.llm --base-url http://localhost:11434/v1 --model qwen2.5:0.5b

Finds or starts a llama.cpp server (``bench/llm_server.py``), then runs the
same decisions of ``bench.loop``'s mix (intake notes, knowledge edits, config
edits, each with a small file in a temporary root) through the daemon's own
``build_loop`` with the LLM reasoner and dry-run executors, once per mode,
each mode on a fresh agent:

- ``before``: stepwise with ``response_format: json_object`` (the client's
  behaviour before issue 12: JSON mode, no schema);
- ``stepwise``: one request per step, the reply format negotiated;
- ``single_call``: one request for all five steps, the format negotiated.

Per mode it prints LLM requests per decision, prompt and completion tokens
per decision, wall time per decision, the share of steps valid on the first
try, the share that fell back to the rules; and the baseline measured in the
same run: the wall time of one request with the same prompt as a
single-call decision (replayed for a few of them).

Targets (issue 12): single_call <= 1.2 deliberation requests per decision
(an INVESTIGATE decision's answers from the model are counted beside them) and wall time
<= 1.5x the one-request baseline; >= 95 % of steps valid on the first try
with a schema-carrying format in both modes; fall-backs <= 5 %.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import bench_settings, connected, verdict
from bench.llm_server import llama_server, wait_until_idle
from bench.loop import KINDS
from bench.rig import scratch_loop
from cognition.deliberate.single_call import WholeReply
from cognition.llm import LLMReply
from cognition.schemas import Deliberation
from graph.models import Observation, ReasonerKind
from graph.settings import Settings
from graph.store.memory import Memory

MODES = {
    "before": ("stepwise", "json_object"),
    "stepwise": ("stepwise", "auto"),
    "single_call": ("single_call", "auto"),
}
FILES = {
    "_intake": "# Note\n\nCall the plumber about the leak on Tuesday.\n- [ ] get a quote\n",
    "knowledge": "# Topic\n\nGraph databases store relationships as first-class records.\n",
    "config": "retries: 3\ntimeout_s: 30\nlog_level: info\n",
}
BASELINE_REPLAYS = 3


@dataclass
class ModeResult:
    """What one mode's decisions cost."""

    mode: str
    reply_format: str | None = None
    wall_s: list[float] = field(default_factory=list)
    requests: int = 0
    # Requests by the step that sent them (DELIBERATE, INVESTIGATE, …), repairs included:
    # the client's counter read around each call, right while calls run one at a time
    # (as the bench's decisions do; embeddings use this client only with provider endpoint).
    by_step: dict[str, int] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    steps: int = 0
    first_try: int = 0
    fell_back: int = 0
    baseline_s: list[float] = field(default_factory=list)
    prompts: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def line(self) -> str:
        n = len(self.wall_s)
        return (
            f"{self.mode:<12} format {self.reply_format or '?':<18}"
            f" requests/decision {self.requests / n:.2f}"
            f" ({', '.join(f'{k} {v / n:.2f}' for k, v in sorted(self.by_step.items()))})"
            f" · prompt tokens/decision {self.prompt_tokens / n:,.0f}"
            f" · completion tokens/decision {self.completion_tokens / n:,.0f}"
            f" · wall/decision mean {statistics.mean(self.wall_s):.1f} s"
            f" (median {statistics.median(self.wall_s):.1f} s)"
            f" · first-try valid {self.first_try / self.steps:.0%}"
            f" · fell back {self.fell_back / self.steps:.0%} of {self.steps} steps"
        )


async def run_mode(settings: Settings, mode: str, count: int, *, baseline: bool) -> ModeResult:
    deliberation, reply_format = MODES[mode]
    settings = settings.model_copy(deep=True)
    settings.reasoner = "llm"
    settings.llm.deliberation = deliberation  # type: ignore[assignment]
    settings.llm.response_format = reply_format  # type: ignore[assignment]
    settings.executors.dry_run = True
    settings.budget.actions_per_hour = 1_000_000
    result = ModeResult(mode)
    async with (
        connected(settings) as (_endpoint, driver),
        scratch_loop(settings, driver, "llm") as scratch,
    ):
        memory, root, runtime = scratch.memory, scratch.root, scratch.runtime
        llm = runtime.llm
        calls: dict[str, LLMReply[Any]] = {}
        deliberations: list[Deliberation] = []
        _record_calls(llm, calls, result.prompts, result.by_step)
        _record_deliberations(runtime.loop.reasoner, deliberations)
        await llm.probe()  # format negotiation, outside the measurement
        result.reply_format = llm.state.reply_format
        batches = [
            [scratch.classifier.classify(_observation(root, memory, i))] for i in range(count)
        ]
        await memory.record_observations([b[0] for b in batches])
        for batch in batches:
            sent = llm.state.requests_sent
            t0 = time.perf_counter()
            await runtime.loop.decide(batch)
            result.wall_s.append(time.perf_counter() - t0)
            result.requests += llm.state.requests_sent - sent
        _tally(result, calls, deliberations)
        if baseline:
            result.baseline_s = await _baseline(llm, result.prompts)
    return result


def _record_calls(
    llm: Any,
    calls: dict[str, LLMReply[Any]],
    prompts: list[tuple[str, str]],
    by_step: dict[str, int],
) -> None:
    inner: Callable[..., Awaitable[LLMReply[Any]]] = llm.complete_json

    async def recorded(**kwargs: Any) -> LLMReply[Any]:
        sent = llm.state.requests_sent
        try:
            reply = await inner(**kwargs)
        finally:
            step = str(kwargs.get("step"))
            if step not in ("probe", "baseline"):
                by_step[step] = by_step.get(step, 0) + llm.state.requests_sent - sent
        if kwargs.get("step") != "probe":
            calls[reply.call_id] = reply
            if kwargs.get("schema") is WholeReply:
                prompts.append((kwargs["system"], kwargs["user"]))
        return reply

    setattr(llm, "complete_json", recorded)  # noqa: B010 - a bench's probe, not product code


def _record_deliberations(reasoner: Any, out: list[Deliberation]) -> None:
    inner: Callable[..., Awaitable[Deliberation]] = reasoner.deliberate

    async def recorded(*args: Any) -> Deliberation:
        deliberation = await inner(*args)
        out.append(deliberation)
        return deliberation

    setattr(reasoner, "deliberate", recorded)  # noqa: B010 - a bench's probe, not product code


def _tally(
    result: ModeResult, calls: dict[str, LLMReply[Any]], deliberations: list[Deliberation]
) -> None:
    result.prompt_tokens = sum(c.prompt_tokens for c in calls.values())
    result.completion_tokens = sum(c.completion_tokens for c in calls.values())
    for deliberation in deliberations:
        for step in deliberation.steps:
            result.steps += 1
            call = calls.get(step.call_id or "")
            if step.reasoner is ReasonerKind.RULES:
                result.fell_back += 1
                result.errors.append(f"{step.name.value}: {(step.error or '')[:300]}")
            elif call is not None and call.attempts == 1:
                result.first_try += 1


async def _baseline(llm: Any, prompts: list[tuple[str, str]]) -> list[float]:
    """One request with a single-call decision's own prompt, timed, for a few decisions."""
    timings = []
    for system, user in prompts[:: max(1, len(prompts) // BASELINE_REPLAYS)][:BASELINE_REPLAYS]:
        t0 = time.perf_counter()
        await llm.complete_json(
            system=system, user=user, schema=WholeReply, step="baseline", repair=False
        )
        timings.append(time.perf_counter() - t0)
    return timings


def _observation(root: Path, memory: Memory, i: int) -> Observation:
    kind, pattern = KINDS[i % len(KINDS)]
    path = pattern.format(i)
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(FILES[path.split("/")[0]], encoding="utf-8")
    return Observation(agent_id=memory.agent_id, type=kind, path=path, metadata={})


def report(results: list[ModeResult]) -> bool:
    for result in results:
        print(result.line())
        for error in result.errors:
            print(f"    fell back: {error}")
    single = next((r for r in results if r.mode == "single_call"), None)
    checks: list[tuple[bool, str]] = []
    if single is not None and single.baseline_s:
        base = statistics.median(single.baseline_s)
        wall = statistics.mean(single.wall_s)
        print(
            f"baseline: one request with a single-call prompt, median {base:.1f} s of "
            f"{len(single.baseline_s)} ({', '.join(f'{b:.1f}' for b in single.baseline_s)} s)"
        )
        n = len(single.wall_s)
        # The target is the deliberation's: one request for the five steps, repairs counted.
        # An INVESTIGATE decision's questions answered by the model are work of their own,
        # shown beside it (and inside the wall time).
        deliberating = single.by_step.get("DELIBERATE", 0)
        checks += [
            (
                deliberating / n <= 1.2,
                f"single_call {deliberating / n:.2f} deliberation requests/decision"
                f" (target <= 1.2; {single.requests / n:.2f} with investigation)",
            ),
            (
                wall <= 1.5 * base,
                f"single_call wall {wall / base:.2f}x one request (target <= 1.5x)",
            ),
        ]
    for result in results:
        if result.mode == "before":
            continue
        checks += [
            (
                result.first_try >= 0.95 * result.steps,
                f"{result.mode} first-try valid {result.first_try / result.steps:.0%}"
                " (target >= 95%)",
            ),
            (
                result.fell_back <= 0.05 * result.steps,
                f"{result.mode} fell back {result.fell_back / result.steps:.0%} (target <= 5%)",
            ),
        ]
    for ok, text in checks:
        print(f"{verdict(ok)}  {text}")
    return all(ok for ok, _ in checks)


async def run(args: argparse.Namespace) -> bool:
    settings = bench_settings()
    with llama_server(
        args.base_url,
        port=args.port,
        python=args.llama_python,
        gguf=args.gguf,
        n_ctx=args.n_ctx,
        log_path=Path(tempfile.gettempdir()) / "nous-bench-llama.log",
    ) as (base_url, how):
        settings.llm.base_url = base_url
        if args.model:
            settings.llm.model = args.model
        settings.llm.timeout_s = args.timeout
        print(f"llm: {base_url} ({how}); {args.decisions} decisions per mode")
        results = []
        for mode in args.modes.split(","):
            # A request the last mode gave up on may still be generating: wait it out.
            await asyncio.to_thread(wait_until_idle, base_url, args.timeout)
            started = time.perf_counter()
            result = await run_mode(settings, mode, args.decisions, baseline=mode == "single_call")
            print(f"  {mode} done in {time.perf_counter() - started:.0f} s", flush=True)
            results.append(result)
    return report(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--modes", default="before,stepwise,single_call")
    parser.add_argument("--base-url", default=os.environ.get("NOUS_BENCH_LLM_URL"))
    parser.add_argument("--model", default=os.environ.get("NOUS_BENCH_LLM_MODEL"))
    parser.add_argument("--llama-python", default=os.environ.get("NOUS_BENCH_LLAMA_PYTHON"))
    parser.add_argument("--gguf", default=os.environ.get("NOUS_BENCH_GGUF"))
    parser.add_argument("--port", type=int, default=1234)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--log-file", help="the client's DEBUG log (why a reply was unusable)")
    args = parser.parse_args()
    if args.log_file:
        handler = logging.FileHandler(args.log_file)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
        logging.getLogger("cognition").addHandler(handler)
        logging.getLogger("cognition").setLevel(logging.DEBUG)
    for mode in args.modes.split(","):
        if mode not in MODES:
            parser.error(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
