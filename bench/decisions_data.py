"""A generated project for ``bench.decisions``: rules stated in chats and commits, decoys, prompts.

Every rule is a knob of one component (``UPLOADER_MAX_ATTEMPTS`` in
``src/uploader.py``) set to a value for a reason. A rule is stated once,
either in a past session (the assistant's or the person's words, among
ordinary turns) or in a commit message (among ordinary commits that touch
the same files); some are amended in a later session. Ordinary sessions talk
about the same components and names without stating any rule. Each rule
gets one prompt, a bug report whose fix needs it, often without its code
name ("the uploader gives up too early; restore the agreed attempt budget").

Phrasings are drawn from pools of different shapes (a decision marker or a
bare modal, the reason before or after, in the same sentence or the next,
the value in words or digits), so the set does not echo one template;
``phrases="heldout"`` draws rules, amendments, asks and bug reports from
:mod:`bench.decisions_heldout` instead, a second set used only to check
generality. Every assistant turn gets an opening and a closing drawn alike
for ordinary and rule-stating replies (a Claude Code turn is rarely the rule
alone).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bench import decisions_heldout, decisions_phrases
from bench.decisions_phrases import (
    CLOSERS,
    COMPONENTS,
    KNOBS,
    OPENERS,
    ORDINARY_CHAT,
    ORDINARY_COMMITS,
    TROUBLE_CHAT,
    Knob,
    Pair,
)

FOLLOW_UP = "|||"
"""In a rule's phrasing: the reply, then the person's follow-up, then the reply giving the
reason (the rule stated over two turns)."""


@dataclass(frozen=True)
class Pools:
    """The phrasings a set is drawn from: rules in chats and commits, amendments, bug reports,
    the person's asks."""

    chat_rules: list[str]
    commit_rules: list[str]
    amendments: list[str]
    prompts: list[str]
    asks: list[str]
    revisit: str


PHRASES = {
    "shipped": Pools(
        decisions_phrases.CHAT_RULES,
        decisions_phrases.COMMIT_RULES,
        decisions_phrases.AMENDMENTS,
        decisions_phrases.PROMPTS,
        decisions_phrases.ASKS,
        "Can we revisit {name}?",
    ),
    "heldout": Pools(
        decisions_heldout.CHAT_RULES,
        decisions_heldout.COMMIT_RULES,
        decisions_heldout.AMENDMENTS,
        decisions_heldout.PROMPTS,
        decisions_heldout.ASKS,
        decisions_heldout.REVISIT,
    ),
}


@dataclass(frozen=True)
class Rule:
    """One rule: its code name, file, value, the words that state it, and how it was stated."""

    name: str
    file: str
    component: str
    what: str
    plain: str
    value: int
    text: str
    """The rule as stated (a rule stated over two turns: both replies, joined)."""
    origin: str
    """``session`` or ``commit``."""
    wrong_effect: str
    amended: Rule | None = None
    follow_up: str = ""
    """A rule stated over two turns: the person's question between the replies."""
    said: tuple[str, ...] = ()
    """A rule stated over two turns: the two replies."""


@dataclass
class Project:
    """The generated material: sessions (lists of turns), commits, rules, prompts."""

    sessions: list[list[tuple[str, str]]] = field(default_factory=list)
    """Each session: (prompt, reply) turns, in order (ordinary and rule sessions mixed)."""
    session_days: list[str] = field(default_factory=list)
    commits: list[tuple[str, str, str, tuple[str, ...]]] = field(default_factory=list)
    """(sha, message, authored_at, files)."""
    rules: list[Rule] = field(default_factory=list)
    prompts: list[tuple[str, Rule, str]] = field(default_factory=list)
    """(prompt, the rule it needs, category: conversation, history or amended)."""


def generate(
    seed: int = 58,
    *,
    commit_rules: int = 28,
    session_rules: int = 33,
    amended: int = 6,
    ordinary_sessions: int = 140,
    ordinary_commits: int = 100,
    phrases: str = "shipped",
) -> Project:
    """A project of the issue's shape (the defaults), drawn from ``seed``, its rules and
    prompts phrased from :data:`PHRASES` ``[phrases]``."""
    rng = random.Random(seed)
    pools = PHRASES[phrases]
    pairs = [(c, k) for c in COMPONENTS for k in KNOBS]
    rng.shuffle(pairs)
    chosen = pairs[: commit_rules + session_rules]
    project = Project()
    rules = [
        _rule(rng, pools, c, k, "commit" if i < commit_rules else "session")
        for i, (c, k) in enumerate(chosen)
    ]
    amended_ids = set(rng.sample(range(len(rules)), amended))
    for i in sorted(amended_ids):
        rules[i] = _amend(rng, pools, rules[i], chosen[i][1])
    project.rules = rules
    _history(rng, project, chosen, rules, ordinary_commits)
    _sessions(rng, pools, project, chosen, rules, ordinary_sessions)
    for i, rule in enumerate(rules):
        category = (
            "amended"
            if rule.amended
            else ("history" if rule.origin == "commit" else "conversation")
        )
        project.prompts.append((_prompt(rng, pools, rule, chosen[i]), rule, category))
    rng.shuffle(project.prompts)
    return project


def _fill(template: str, **values: object) -> str:
    reason = str(values["reason"])
    return template.format(**values, Reason=reason[:1].upper() + reason[1:])


def _values(rng: random.Random, knob: Knob) -> tuple[int, int, str]:
    value = (
        rng.randint(3, 9)
        if knob[1] in ("attempts", "workers")
        else rng.choice([12, 25, 45, 64, 90, 120, 250, 400, 500, 750, 4096, 8192])
    )
    wrong = value + rng.choice([1, 2, 3]) if value < 10 else value * 2
    reason = knob[4].format(over=value + 1, near=value)
    return value, wrong, reason


def _rule(
    rng: random.Random, pools: Pools, component: tuple[str, str], knob: Knob, origin: str
) -> Rule:
    name = f"{component[0].upper()}_{knob[0]}"
    file = f"src/{component[0]}.py"
    value, wrong, reason = _values(rng, knob)
    plain = rng.choice(knob[2])
    pool = pools.commit_rules if origin == "commit" else pools.chat_rules
    text = _fill(
        rng.choice(pool),
        name=name,
        value=value,
        unit=knob[1],
        reason=reason,
        plain=plain,
        file=file,
        wrong=wrong,
        component=component[0],
    )
    said: tuple[str, ...] = ()
    follow_up = ""
    if FOLLOW_UP in text:
        first, follow_up, second = text.split(FOLLOW_UP)
        said, text = (first, second), f"{first} {second}"
    effect = rng.choice(knob[3])
    return Rule(
        name,
        file,
        component[0],
        component[1],
        plain,
        value,
        text,
        origin,
        effect,
        follow_up=follow_up,
        said=said,
    )


def _amend(rng: random.Random, pools: Pools, rule: Rule, knob: Knob) -> Rule:
    value = rule.value + 1 if rule.value < 10 else rule.value * 2
    reason = knob[4].format(over=value + 1, near=value)
    text = _fill(
        rng.choice(pools.amendments),
        name=rule.name,
        value=value,
        unit=knob[1],
        reason=reason,
        old=rule.value,
    )
    amendment = Rule(
        rule.name,
        rule.file,
        rule.component,
        rule.what,
        rule.plain,
        value,
        text,
        "session",
        rule.wrong_effect,
    )
    return Rule(**{**rule.__dict__, "amended": amendment})


def _helper(rng: random.Random, component: str) -> str:
    return f"{rng.choice(['load', 'next', 'pending', 'flush', 'collect'])}_{component}_jobs"


def _history(
    rng: random.Random, project: Project, chosen: list[Pair], rules: list[Rule], n: int
) -> None:
    entries: list[tuple[str, tuple[str, ...]]] = []
    for rule in rules:
        if rule.origin == "commit":
            entries.append((rule.text, (rule.file,)))
    for _ in range(n):
        component, knob = rng.choice(chosen)
        file = f"src/{component[0]}.py"
        message = rng.choice(ORDINARY_COMMITS).format(
            file=file,
            component=component[0],
            helper=_helper(rng, component[0]),
            plain=rng.choice(knob[2]),
        )
        entries.append((message, (file,)))
    rng.shuffle(entries)
    start = datetime(2026, 6, 1, 8, tzinfo=UTC)
    for i, (message, files) in enumerate(entries):
        stamp = (start + timedelta(hours=i * 90 * 24 // len(entries))).isoformat()
        sha = f"{rng.getrandbits(160):040x}"
        project.commits.append((sha, message, stamp, files))


def _sessions(
    rng: random.Random,
    pools: Pools,
    project: Project,
    chosen: list[Pair],
    rules: list[Rule],
    n: int,
) -> None:
    stated: list[list[tuple[str, str]]] = []
    for rule in rules:
        if rule.origin == "session":
            ask = rng.choice(pools.asks).format(
                name=rule.name, what=rule.what, plain=rule.plain, component=rule.component
            )
            said = _stating(rng, rule, ask)
            turns = [_ordinary(rng, chosen), said[0]]
            rng.shuffle(turns)
            stated.append(turns + said[1:])
    ordinary = [[_ordinary(rng, chosen) for _ in range(rng.randint(1, 3))] for _ in range(n)]
    sessions = stated + ordinary
    rng.shuffle(sessions)
    amendments = [
        [
            _ordinary(rng, chosen),
            (pools.revisit.format(name=r.name), _wrap(rng, r.amended.text, _about(rng, r))),
        ]
        for r in rules
        if r.amended is not None
    ]
    for i, turns in enumerate([*sessions, *amendments]):  # amendments come last: later dates
        project.sessions.append(turns)
        day = i * 70 // (len(sessions) + len(amendments))
        project.session_days.append(f"2026-{9 + day // 28:02d}-{1 + day % 28:02d}")


def _stating(rng: random.Random, rule: Rule, ask: str) -> list[tuple[str, str]]:
    """The turns in which ``rule`` is stated: one, or two when its reason follows a question."""
    about = _about(rng, rule)
    if not rule.said:
        return [(ask, _wrap(rng, rule.text, about))]
    return [(ask, _wrap(rng, rule.said[0], about)), (rule.follow_up, rule.said[1])]


def _about(rng: random.Random, rule: Rule) -> dict[str, str]:
    return {"file": rule.file, "component": rule.component, "helper": _helper(rng, rule.component)}


def _wrap(rng: random.Random, reply: str, values: dict[str, str]) -> str:
    """``reply`` as an assistant's turn: what it looked at before, what it did after (or not)."""
    parts = (rng.choice(OPENERS).format(**values), reply, rng.choice(CLOSERS).format(**values))
    return " ".join(part for part in parts if part)


def _ordinary(rng: random.Random, chosen: list[Pair]) -> tuple[str, str]:
    component, knob = rng.choice(chosen)
    file = f"src/{component[0]}.py"
    prompt, reply = rng.choice(ORDINARY_CHAT if rng.random() < 0.6 else TROUBLE_CHAT)
    values = {
        "effect": rng.choice(knob[3]),
        "file": file,
        "component": component[0],
        "helper": _helper(rng, component[0]),
        "name": f"{component[0].upper()}_{knob[0]}",
        "what": component[1],
    }
    return prompt.format(**values), _wrap(rng, reply.format(**values), values)


def _prompt(rng: random.Random, pools: Pools, rule: Rule, pair: Pair) -> str:
    knob = pair[1]
    text = rng.choice(pools.prompts).format(
        component=rule.component,
        wrong_effect=rule.wrong_effect,
        plain=rng.choice(knob[2]),
        what=rule.what,
        file=rule.file,
        name=rule.name,
    )
    return text[:1].upper() + text[1:]
