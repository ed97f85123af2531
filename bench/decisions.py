"""Does the rule reach the agent? Decisions in chats and commits, against BM25 (issue 58).

    python -m bench.decisions [--seed 58] [--small] [--phrases shipped|heldout]

A generated project (:mod:`bench.decisions_data`: 28 rules stated in commit
messages among 100 ordinary commits, 33 stated in 179 past sessions among
ordinary ones, 6 of them amended in a later session) goes into one agent's
memory the way Claude Code feeds it: each past session through ``nous hook``
(the in-process entry the command runs) as Claude Code sends it:
``SessionStart``, then per turn ``UserPromptSubmit``, the person's and the
assistant's lines appended to the session's transcript as the CLI writes
them, ``Stop``; and ``SessionEnd``. The commits are a real git repository in
the project's folder, which the first session's ``SessionStart`` reads (a
hook working alone keeps the new commits and the decisions they state).
Then, in a fresh session, each rule's prompt (a bug report whose fix needs
that one rule) goes to ``UserPromptSubmit``, and what it injects is judged:
the rule is there when every number of its statement and at least
:data:`WORDS_NEEDED` of its words are; for an amended rule, in both arms, one
line holding the amendment and the words it has that the old statement has
not (:func:`holds_amendment`), in Nous's arm marked current.

The baseline, in the same run: BM25 over the same material (every prompt
and reply of the past sessions, every commit message), its best passages
joined and cut to the number of characters Nous injected for that prompt.
Targets: the rule present for >= 90 % of prompts and >= 1.5x BM25; every
amendment present and marked current.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import math
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench.common import bench_settings, connected, report_checks
from bench.decisions_data import PHRASES, Project, Rule, generate
from graph.models import new_id
from graph.settings import Settings, load_settings
from graph.store.memory import Memory
from scheduler.claude.hook_client import run_hook
from tests.support.git_repo import git, new_repo
from tests.support.transcripts import TranscriptWriter

WORDS_NEEDED = 0.6
TARGET_SHARE = 0.9
TARGET_RATIO = 1.5
_WORD = re.compile(r"[a-z0-9]+")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")


def content_words(text: str) -> list[str]:
    """Lowercase words of three letters or more (code names split at ``_``)."""
    return [w for w in _WORD.findall(text.lower().replace("_", " ")) if len(w) >= 3]


def holds(context: str, rule: Rule, *, current: bool = False, old: int | None = None) -> bool:
    """Whether ``context`` carries ``rule``: its numbers (``old``, the value an amendment
    replaced, is not one of them) and most of its words; with ``current``, a line quoting its
    value marked current."""
    said = context.lower()
    numbers = set(_NUMBER.findall(rule.text)) - {str(old)}
    if not all(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w])", said) for n in numbers):
        return False
    words = set(content_words(rule.text))
    have = set(content_words(said))
    if len(words & have) < WORDS_NEEDED * len(words):
        return False
    if current:
        return any(str(rule.value) in line and "current" in line for line in said.splitlines())
    return True


def holds_amendment(context: str, rule: Rule, *, marked: bool) -> bool:
    """Whether ``context`` carries the amendment of ``rule`` (which has one), not only the rule
    it replaced: one line holding the amendment (:func:`holds`) and at least half of the words
    the amendment has that the old statement has not. The old statement's words and numbers
    (its "do not round it to 128" is the amendment's 128) never count for the amendment, in
    either arm. ``marked``: that line also says the rule is current (Nous's arm; plain BM25
    has no notion of current, and the amendment's own words say it replaced the old value)."""
    amendment = rule.amended
    assert amendment is not None
    own = set(content_words(amendment.text)) - set(content_words(rule.text))
    for line in context.splitlines():
        if not holds(line, amendment, current=marked, old=rule.value):
            continue
        if len(own & set(content_words(line))) >= 0.5 * len(own):
            return True
    return False


class BM25:
    """Plain Okapi BM25 (k1 1.2, b 0.75) over passages."""

    def __init__(self, passages: list[str]) -> None:
        self.passages = passages
        self.docs = [Counter(content_words(p)) for p in passages]
        self.avg = sum(sum(d.values()) for d in self.docs) / max(1, len(self.docs))
        df: Counter[str] = Counter()
        for doc in self.docs:
            df.update(doc.keys())
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}

    def context(self, query: str, chars: int) -> str:
        """The best passages for ``query``, joined, cut to ``chars`` characters."""
        terms = set(content_words(query))
        scored = []
        for i, doc in enumerate(self.docs):
            length = sum(doc.values())
            score = sum(
                self.idf[t] * doc[t] * 2.2 / (doc[t] + 1.2 * (0.25 + 0.75 * length / self.avg))
                for t in terms
                if t in doc
            )
            if score > 0:
                scored.append((score, i))
        scored.sort(reverse=True)
        text = "\n".join(self.passages[i] for _, i in scored[:20])
        return text[:chars]


def hook(settings: Settings, root: Path, event: str, session: str, **fields: object) -> str:
    """One ``nous hook EVENT`` in process; the additional context it answered ("" if none)."""
    raw = json.dumps({"session_id": session, "hook_event_name": event, **fields}).encode()
    out, err = io.StringIO(), io.StringIO()
    run_hook(event, io.BytesIO(raw), out, err, root=root, ask=False, settings=settings)
    if "nothing added" in err.getvalue():
        raise RuntimeError(f"{event}: {err.getvalue()[-300:]}")
    text = out.getvalue().strip()
    return str(json.loads(text)["hookSpecificOutput"].get("additionalContext", "")) if text else ""


def replay_session(
    settings: Settings, root: Path, turns: list[tuple[str, str]], day: str, folder: Path
) -> None:
    """One past session through the hooks, its transcript written as the CLI writes it."""
    from datetime import datetime, timedelta

    session = new_id().lower()
    writer = TranscriptWriter(folder / f"{session}.jsonl", session, cwd=str(root))
    where = {"transcript_path": str(writer.path), "cwd": str(root)}
    hook(settings, root, "SessionStart", session, source="startup", **where)
    moment = datetime.fromisoformat(f"{day}T09:00:00+00:00")
    for prompt, reply in turns:
        hook(settings, root, "UserPromptSubmit", session, prompt=prompt, **where)
        writer.user(prompt, moment)
        writer.assistant(reply, moment + timedelta(seconds=20))
        hook(settings, root, "Stop", session, last_assistant_message=reply, **where)
        moment += timedelta(minutes=3)
    hook(settings, root, "SessionEnd", session, reason="other", **where)


def write_history(root: Path, data: Project) -> None:
    """``data``'s commits as a real git repository at ``root`` (author dates as generated, each
    touching its files)."""
    new_repo(root)
    for i, (_, message, at, files) in enumerate(data.commits):
        for name in files:
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as out:
                out.write(f"# change {i}\n")
        git(root, "add", "-A")
        git(root, "commit", "-q", "--allow-empty", "--date", at, "-F", "-", stdin=message.encode())


async def feed(settings: Settings, root: Path, memory: Memory, data: Project) -> None:
    """The repository's history, read by the first session's ``SessionStart`` (a hook working
    alone keeps the new commits and the decisions they state), then every past session
    through the hooks."""
    await asyncio.to_thread(write_history, root, data)
    with tempfile.TemporaryDirectory(prefix="bd-t-") as folder:
        for turns, day in zip(data.sessions, data.session_days, strict=True):
            await asyncio.to_thread(replay_session, settings, root, turns, day, Path(folder))
    await memory.await_text_indexes()


def material(data: Project) -> list[str]:
    """What BM25 searches: every prompt and reply of the past sessions, every commit message."""
    passages = [text for turns in data.sessions for pair in turns for text in pair]
    return passages + [message for _, message, _, _ in data.commits]


async def run(seed: int, small: bool, phrases: str = "shipped") -> bool:
    """Measure, print, check the targets."""
    sizes = SMALL if small else {}
    return report(await measure(generate(seed, phrases=phrases, **sizes)))


async def measure(data: Project) -> list[tuple[str, bool, bool, int]]:
    """Feed ``data`` to a fresh agent through the hooks and judge every prompt (see
    :func:`judge`); the agent is forgotten after."""
    base = bench_settings()
    async with connected(base) as (endpoint, driver):
        agent = f"bench-decisions-{new_id().lower()}"
        memory = Memory(driver, agent)
        with tempfile.TemporaryDirectory(prefix="bd-") as tmp:
            root = Path(tmp)
            settings = _settings(endpoint, agent, f"bench/{agent}")
            try:
                await feed(settings, root, memory, data)
                return await asyncio.to_thread(judge, settings, root, data)
            finally:
                await memory.forget()


SMALL = {
    "commit_rules": 4,
    "session_rules": 5,
    "amended": 2,
    "ordinary_sessions": 10,
    "ordinary_commits": 12,
}
"""``--small``: the fast version (tests/bench/test_decisions.py runs it)."""


def _settings(endpoint: object, agent: str, project: str) -> Settings:
    environ = {"NOUS_AGENT_ID": agent, "NOUS_PROJECT": project}
    for key, name in (("NEO4J_URI", "uri"), ("NEO4J_USER", "user"), ("NEO4J_PASSWORD", "password")):
        environ[key] = str(getattr(endpoint, name))
    return load_settings(Path(__file__).with_name("decisions_settings.yaml"), environ=environ)


def judge(settings: Settings, root: Path, data: Project) -> list[tuple[str, bool, bool, int]]:
    """Per prompt: category, Nous holds the rule, BM25 holds it, characters injected."""
    bm25 = BM25(material(data))
    session = new_id().lower()
    hook(settings, root, "SessionStart", session, source="startup")
    results = []
    for prompt, rule, category in data.prompts:
        context = hook(settings, root, "UserPromptSubmit", session, prompt=prompt)
        if rule.amended is not None:
            nous = holds_amendment(context, rule, marked=True)
            baseline = holds_amendment(bm25.context(prompt, len(context)), rule, marked=False)
        else:
            nous = holds(context, rule)
            baseline = holds(bm25.context(prompt, len(context)), rule)
        results.append((category, nous, baseline, len(context)))
    return results


def report(results: list[tuple[str, bool, bool, int]]) -> bool:
    """Print per category and in all; the targets checked."""
    for category in ("conversation", "history", "amended", "all"):
        rows = [r for r in results if category in ("all", r[0])]
        if not rows:
            continue
        nous, bm25 = sum(r[1] for r in rows), sum(r[2] for r in rows)
        chars = sum(r[3] for r in rows) / len(rows)
        print(
            f"{category:<13} Nous {nous:3d}/{len(rows):<3d}  BM25 {bm25:3d}/{len(rows):<3d}"
            f"  mean injected {chars:6.0f} chars"
        )
    nous = sum(r[1] for r in results)
    bm25 = sum(r[2] for r in results)
    ratio = nous / bm25 if bm25 else float("inf")
    amended = [r for r in results if r[0] == "amended"]
    print(f"ratio Nous / BM25: {ratio:.2f}x")
    return report_checks(
        [
            (
                nous >= TARGET_SHARE * len(results),
                f"rule present for {nous}/{len(results)} prompts (>= 90 %)",
            ),
            (ratio >= TARGET_RATIO, f"{ratio:.2f}x BM25 at the same size (>= 1.5x)"),
            (
                all(r[1] for r in amended),
                f"amendment present and current for {sum(r[1] for r in amended)}/{len(amended)}",
            ),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=58)
    parser.add_argument("--small", action="store_true", help="the fast version")
    parser.add_argument(
        "--phrases",
        choices=sorted(PHRASES),
        default="shipped",
        help="the phrasings drawn from (heldout: the set written to check generality only)",
    )
    args = parser.parse_args()
    sys.exit(0 if asyncio.run(run(args.seed, args.small, args.phrases)) else 1)


if __name__ == "__main__":
    main()
