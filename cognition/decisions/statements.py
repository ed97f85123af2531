"""The sentences that state a decision: a rule, a choice or a constraint, and its reason.

What a person would underline in a chat or a commit message: "MAX_ATTEMPTS
is 7, measured to the rate-limit window; do not round it to 10", "we
decided to keep the cache per process because workers fork", "never retry
a 4xx other than 429". By rules, no model: a sentence is scored on

* a **decision marker** (2): "decided", "agreed", "from now on", "the rule
  is", "by design", a prohibition ("do not round", "never retry", "must not");
* a **modal** (1): must, should, always, never, keep, pin, cap, at most, exactly…;
* a **reason** (1): because, since, so that, otherwise, to avoid, measured…
  (or a clause after ";" or a dash);
* a **subject** (1): a code name, file or config key it names, and (1) a number.

It is a statement when it scores 3 or more with a marker or a modal, and a
reason or a subject. Questions, requests ("can you", "please"), the
speaker's own next steps ("let me", "I'll"), hedges ("maybe", "probably")
and predictions ("this should fix") never are: ordinary chatter must not
become a decision. A statement without its reason takes the next sentence
when that one gives it ("Keep it at 7. The limiter allows 8 per window.").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cognition.decisions.subjects import code_names, files_in, numbers_in

MAX_STATEMENT_CHARS = 400
THRESHOLD = 3
_I = re.IGNORECASE
_MARKER = re.compile(
    r"\b(?:(?:we|i|they|team|everyone)\s+(?:have\s+|had\s+|all\s+)?(?:decided|agreed|chose|"
    r"settled|opted|concluded|picked)|decided|agreed|decision|consensus|settled on|"
    r"going with|we(?:'ll| will) go with|from now on|going forward|henceforth|from here on|"
    r"as a rule|the rule is|rule of thumb|policy|convention|by design|on purpose|"
    r"intentionally|deliberately|non-negotiable|hard limit|do not change|invariant|"
    r"replaces|supersedes|overrides|amends|amended|revised|revise|"
    r"(?:the|our|a|team|house) rule|rule:)\b"
    r"|\b(?:do not|don't|never|must not|mustn't|shall not|should not|shouldn't|may not|"
    r"cannot|can't|no longer)\s+(?:\w+\s+){0,2}?(?:round|change|raise|lower|increase|decrease|"
    r"bump|touch|remove|drop|exceed|go|use|set|reduce|retry|cache|merge|revert|disable|"
    r"enable|call|add|rely|depend|log|block|allow|share|mix|run|store|send|skip|make|put)\b",
    _I,
)
_MODAL = re.compile(
    r"\b(?:must|should|shall|has to|have to|needs? to|always|never|only|keep|kept|stays?|"
    r"remains?|pinned|pin|fixed at|capped|cap|at most|at least|no more than|no less than|"
    r"exactly|required|requires|mandatory|reserved|limit(?:ed)? to|set to|is set|"
    r"instead of|rather than|prefer|avoid|stick with|sticks with|"
    r"(?:we(?:'re| are) )?(?:changing|raising|lowering|moving|switching|bumping|reducing|"
    r"increasing) \S+ (?:to|from))\b"
    r"|^\s*(?:set|pin|cap|limit|keep|use|switch|raise|lower|bump|move|restrict|increase|"
    r"decrease|reduce|make|require|default|enforce|drop|allow|disallow|forbid)\b",
    _I,
)
_REASON = re.compile(
    r"\b(?:because|since|so that|so we|so it|so the|otherwise|or else|to avoid|to keep|"
    r"to prevent|to stay|due to|given that|measured|benchmarked|profiled|found that|trips|"
    r"exceeds|breaks|broke|caused|causes|would break|which is why|that's why|the reason|"
    r"reason:|as it|as the|as they|else|leads to|results in|ends up|now that)\b"
    r"|;\s+\w|\s[\u2014\u2013-]\s+\w|^(?:\S+\s+){2,}\S*\w:\s+\w",
    _I,
)
_REJECT = re.compile(
    r"^\s*(?:can|could|would|will|do|does|did|is|are|shall)\s+(?:you|we|i)\b|"
    r"\bplease\b(?!\s+(?:do not|don't|never|keep|leave|stick))|"
    r"^\s*(?:let me|let's (?:see|check|look|try|run|start)|i'll|i will|i'm going to|"
    r"i am going to|now i|next,? i|first,? i|then i|thanks|thank you|"
    r"good (?:catch|question)|looks good|hmm)|\b(?:maybe|perhaps|probably|might|not sure|"
    r"wondering|what if|possibly|i guess|i wonder)\b|"
    r"\b(?:this|that|it) should (?:now |also )?(?:fix|work|help|pass|resolve|be fine|solve|do)\b",
    _I,
)
# What a sentence after a rule says when it explains it ("Larger batches time out.").
_EXPLAINS = re.compile(
    r"\b(?:larger|smaller|bigger|more|fewer|higher|lower|longer|shorter|anything|beyond|above|"
    r"below|past|over|under|fails?|failed|failing|times? out|timed out|break|slow|crash\w*|"
    r"leak\w*|lose|lost|drops?|throttl\w*|limit\w*|window|quota|race|deadlock\w*|"
    r"corrupt\w*|tear|overflow\w*|stale|duplicate\w*|double)\b",
    _I,
)
# A sentence after a rule saying what it replaced ("This replaces the old value of 7.").
_AMENDS = re.compile(r"\b(?:replaces|supersedes|no longer holds|instead of the old)\b", _I)
# Every match of _MARKER or _MODAL holds one of these words: a sentence holding none is passed
# over without running them (a transcript's words are mostly not rules; the regexes cost).
_KEYWORD_LINES = (
    "decided agreed chose settled opted concluded picked decision consensus going go now",
    "forward henceforth here rule rule: policy convention design purpose intentionally",
    "deliberately negotiable limit change invariant replaces supersedes overrides amends",
    "amended revised revise not don't never mustn't shouldn't cannot can't longer must",
    "should shall has have needs need always only keep kept stay stays remain remains",
    "pinned pin fixed capped cap most least more less exactly required requires mandatory",
    "reserved limited set instead rather prefer avoid stick sticks changing raising",
    "lowering moving switching bumping reducing increasing use switch raise lower bump move",
    "restrict increase decrease reduce make require default enforce drop allow disallow",
    "forbid",
)
_KEYWORDS = frozenset(word for line in _KEYWORD_LINES for word in line.split())
_WORDS = re.compile(r"[a-z']+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[*_0-9])|\n+")
_BULLET = re.compile(r"^\s*(?:[-*+>]|\d+[.)])\s+|\*\*|__")


@dataclass(frozen=True)
class Statement:
    """One decision as stated: its sentence (with the reason that followed it), and what it
    concerns."""

    text: str
    subjects: tuple[str, ...]
    files: tuple[str, ...]
    score: int


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences (lines and sentence ends), list markers and emphasis dropped."""
    pieces = (_BULLET.sub("", p).strip() for p in _SENTENCE_END.split(text))
    return [p for p in pieces if p]


def score(sentence: str) -> int:
    """How strongly ``sentence`` states a decision (0: it does not; :data:`THRESHOLD` and up: it
    does)."""
    if sentence.rstrip().endswith("?"):
        return 0
    if _KEYWORDS.isdisjoint(_WORDS.findall(sentence.lower())) or _REJECT.search(sentence):
        return 0
    marker, modal = bool(_MARKER.search(sentence)), bool(_MODAL.search(sentence))
    if not (marker or modal):
        return 0
    reason = bool(_REASON.search(sentence))
    subject = bool(code_names(sentence) or files_in(sentence))
    number = bool(numbers_in(sentence))
    if not (reason or subject):
        return 0
    return 2 * marker + modal + reason + subject + number


def statements(text: str) -> list[Statement]:
    """The decisions ``text`` states, in order: each sentence scoring :data:`THRESHOLD` or more,
    with the next sentence appended when it gives the reason this one lacks."""
    cut = sentences(text)
    found: list[Statement] = []
    skip_next = False
    for i, sentence in enumerate(cut):
        if skip_next:
            skip_next = False
            continue
        points = score(sentence)
        if points < THRESHOLD:
            continue
        said = sentence
        following = cut[i + 1] if i + 1 < len(cut) else ""
        if following and _completes(sentence, following):
            joiner = " " if sentence[-1:] in ".!;:" else ". "
            said, skip_next = f"{sentence}{joiner}{following}", True
        said = said[:MAX_STATEMENT_CHARS]
        found.append(Statement(said, tuple(code_names(said)), tuple(files_in(said)), points))
    return found


def _completes(sentence: str, following: str) -> bool:
    """Whether ``following`` belongs with the rule ``sentence`` states: the reason it lacks, a
    reason that names no other code, or what it replaced."""
    if _AMENDS.search(following):
        return True
    if not _gives_reason(following):
        return False
    return not _REASON.search(sentence) or not (code_names(following) or files_in(following))


def _gives_reason(sentence: str) -> bool:
    return (
        len(sentence) <= 240
        and not sentence.rstrip().endswith("?")
        and bool(_REASON.search(sentence) or _EXPLAINS.search(sentence) or numbers_in(sentence))
        and not _REJECT.search(sentence)
    )
