"""The cost of reading a session's transcript at ``Stop``: ``nous hook Stop`` alone, 5 MB.

    python -m bench.stop_transcript [--megabytes 5] [--runs 5] [--all-text]

Each run is a new session whose transcript (written as Claude Code 2.1.328
writes it: prompts, the assistant's words, tool calls and their results) is
``--megabytes`` long, read whole by one ``nous hook Stop`` process working
alone (no daemon): the slowest case, a session's first read. The baseline,
in the same run: the same hook on a transcript of one prompt. Printed: wall
time p50 and max of each, the ratio, and the hook process's peak resident
memory (``wait4``'s ``ru_maxrss``), against the issue's target (under 1 s).
``--all-text``: the worst case, a transcript that is all the assistant's words
(each line of text is an utterance to write).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import bench_settings, connected, hook_environment, percentile, report_checks
from graph.models import new_id
from graph.store.memory import Memory
from tests.support.transcripts import TranscriptWriter

NOUS = Path(sys.executable).parent / "nous"
TARGET_S = 1.0
FILLER = (
    "The limiter counts requests per window, so the retrier backs off between attempts. "
    "Nothing else changes in this module; the tests cover the happy path and the timeout. "
)


def write_transcript(path: Path, session: str, megabytes: float, *, all_text: bool = False) -> None:
    """A transcript of ``megabytes`` shaped as the CLI writes one: per turn, the prompt, the
    system prompt's snapshot (about 16 KB: the CLI writes it with every request), the
    assistant's words with a tool call whose output is about 8 KB, and its closing words."""
    writer = TranscriptWriter(path, session)
    turn = 0
    while path.stat().st_size < megabytes * 1024 * 1024:
        turn += 1
        writer.user(f"step {turn}: look at retry.py again")
        if all_text:  # the worst case: every byte is words to keep
            writer.assistant(FILLER * 20)
            continue
        writer.attachment(FILLER * 100)
        writer.assistant(FILLER * 2, tool=True, output=FILLER * 50)
        writer.assistant(f"Done with step {turn}. " + FILLER)


def stop_once(path: Path, session: str, env: dict[str, str], root: Path) -> tuple[float, int]:
    """Seconds of one ``nous hook Stop`` on ``path``, and the process's peak RSS in KiB."""
    payload = {
        "session_id": session,
        "hook_event_name": "Stop",
        "transcript_path": str(path),
        "last_assistant_message": "done",
    }
    started = time.perf_counter()
    child = subprocess.Popen(
        [str(NOUS), "hook", "Stop", "--root", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        cwd=root,
    )
    assert child.stdin is not None and child.stderr is not None
    child.stdin.write(json.dumps(payload).encode())
    child.stdin.close()
    _pid, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    err = child.stderr.read().decode()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0 or "nothing added" in err:
        raise RuntimeError(f"Stop hook failed ({child.returncode}): {err[-500:]}")
    return elapsed, int(usage.ru_maxrss)


async def run(megabytes: float, runs: int, all_text: bool) -> bool:
    settings = bench_settings()
    async with connected(settings) as (endpoint, driver):
        memory = Memory(driver, f"bench-stop-{new_id().lower()}")
        env = hook_environment(endpoint, memory.agent_id)
        with tempfile.TemporaryDirectory(prefix="bst-", dir="/tmp") as tmp:
            root = Path(tmp)
            big, small = root / "big.jsonl", root / "small.jsonl"
            write_transcript(big, "s", megabytes, all_text=all_text)
            TranscriptWriter(small, "s").user("one prompt")
            size = big.stat().st_size
            base, timed, peaks = [], [], []
            kept = 0
            for _ in range(runs):
                base.append(stop_once(small, new_id().lower(), env, root)[0])
                session = new_id().lower()
                seconds, peak = stop_once(big, session, env, root)
                timed.append(seconds)
                peaks.append(peak)
                kept = len(await memory.transcripts.session_utterances(session, 100_000))
        b50, t50 = percentile(base, 50), percentile(timed, 50)
        print(f"neo4j: {endpoint.describe()}; transcript {size / 1e6:.2f} MB, {kept} utterances")
        for label, times in (("one-prompt", base), (f"{megabytes:g} MB", timed)):
            p50, worst = percentile(times, 50) * 1000, max(times) * 1000
            print(f"Stop, {label} transcript  p50 {p50:7.1f} ms  max {worst:7.1f} ms")
        print(f"ratio p50 {t50 / b50:.2f}x; peak RSS of the hook {max(peaks) / 1024:.1f} MiB")
        return report_checks(
            [(max(timed) < TARGET_S, f"every {megabytes:g} MB Stop under {TARGET_S:g} s")]
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--all-text", action="store_true", help="a transcript of nothing but words to keep"
    )
    args = parser.parse_args()
    sys.exit(0 if asyncio.run(run(args.megabytes, args.runs, args.all_text)) else 1)


if __name__ == "__main__":
    main()
