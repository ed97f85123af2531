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
    r"going with|we(?:'ll| will) go with|went with|gone with|opted for|from now on|"
    r"going forward|henceforth|from here on|conclusion|obsolete|outdated|wrong now|"
    r"reverts?|reverted|new (?:value|number|limit|default|setting|size|budget|timeout) for|"
    r"as a rule|the rule is|rule of thumb|policy|convention|by design|on purpose|"
    r"intentionally|deliberately|non-negotiable|hard limit|do not change|invariant|"
    r"replaces|supersedes|overrides|amends|amended|revised|revise|"
    r"(?:the|our|a|team|house) rule|rule:)\b"
    r"|\b(?:do not|don't|never|must not|mustn't|shall not|should not|shouldn't|may not|"
    r"cannot|can't|no longer)\s+(?:\w+\s+){0,2}?(?:round|change|raise|lower|increase|decrease|"
    r"bump|touch|remove|drop|exceed|go|use|set|reduce|retry|cache|merge|revert|disable|"
    r"enable|call|add|rely|depend|log|block|allow|share|mix|run|store|send|skip|make|put)\b"
    r"|^\s*(?-i:\d[\d.]*|\w+_\w+|[A-Z][A-Z0-9]+)\s+it is\b",
    _I,
)
_MODAL = re.compile(
    r"\b(?:must|should|shall|has to|have to|needs? to|always|never|only|keep|kept|stays?|"
    r"remains?|pinned|pin|fixed at|capped|cap|at most|at least|no more than|no less than|"
    r"exactly|required|requires|mandatory|reserved|limit(?:ed)? to|set to|is set|"
    r"instead of|rather than|prefer|avoid|stick with|sticks with|"
    r"(?:we(?:'re| are) )?(?:changing|raising|lowering|moving|switching|bumping|reducing|"
    r"increasing) \S+ (?:to|from)|keeps|leave \S+ (?:at|as|alone)|left at|"
    r"let's (?:make|set|keep|use|cap|pin|limit|stay|stick)|intentionally|"
    r"(?:bumped|raised|lowered|moved|moves|changed|increased|decreased|reduced|dropped|goes|"
    r"went|set|limited|capped|pinned) (?:\S+ ){0,3}?(?:to|from|at) \d+)\b"
    r"|\S\s*->\s*\d"
    r"|^\s*(?:[\w.-]+(?:\([^)]*\))?!?:\s+)?(?:set|pin|cap|limit|keep|use|switch|raise|lower|"
    r"bump|move|restrict|increase|"
    r"decrease|reduce|make|require|default|enforce|drop|allow|disallow|forbid)\b",
    _I,
)
_REASON = re.compile(
    r"\b(?:because|since|so that|so we|so it|so the|otherwise|or else|to avoid|to keep|"
    r"to prevent|to stay|due to|given that|measured|benchmarked|profiled|found that|trips|"
    r"exceeds|breaks|broke|caused|causes|would break|which is why|that's why|the reason|"
    r"reason:|as it|as the|as they|else|leads to|results in|ends up|now that|rationale|"
    r"reason being|, so)\b|\b(?:reason|why|rationale):\s"
    r"|\((?:the|a|an|each|every|it|they|we|our|its)\s[^)]{6,}\)"
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
    "forbid went gone conclusion obsolete outdated wrong revert reverts reverted new keeps",
    "leave left let's bumped raised lowered moved moves changed increased decreased reduced",
    "dropped goes limited",
)
_KEYWORDS = frozenset(word for line in _KEYWORD_LINES for word in line.split())
_WORDS = re.compile(r"[a-z']+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[*_0-9])|\n+")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")
MAX_LIST_ITEMS = 8
# A code name set to a number in one sentence: "MAX_ATTEMPTS is 7", "POOL_SIZE 40 -> 20".
_SETS_VALUE = re.compile(r"\b[A-Za-z_][\w.]*_[\w.]*\W+(?:[a-z]+\W+){0,3}?\d")
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
    """``text`` cut into sentences (lines and sentence ends), list markers and emphasis dropped;
    a line ending in ":" and the list under it are one ("We settled on: - X: 500; - why: …")."""
    pieces = (_BULLET.sub("", p).strip() for p in _SENTENCE_END.split(_lists_joined(text)))
    return [p for p in pieces if p]


def _lists_joined(text: str) -> str:
    """``text`` with each list introduced by a line ending in ":" on that line, its items
    joined by "; " (at most :data:`MAX_LIST_ITEMS`): the items say what the line announced."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        j = i + 1
        items: list[str] = []
        if line.rstrip().endswith(":"):
            while j < len(lines) and _LIST_ITEM.match(lines[j]) and len(items) < MAX_LIST_ITEMS:
                items.append(_BULLET.sub("", lines[j]).strip().rstrip(".;"))
                j += 1
        if items:
            out.append(f"{line.rstrip()} {'; '.join(items)}.")
            i = j
        else:
            out.append(line)
            i += 1
    return "\n".join(out)


def score(sentence: str, *, reasoned: bool = False) -> int:
    """How strongly ``sentence`` states a decision (0: it does not; :data:`THRESHOLD` and up: it
    does); ``reasoned``: the next sentence gives its reason."""
    if sentence.rstrip().endswith("?"):
        return 0
    if not _may_rule(sentence) or _REJECT.search(sentence):
        return 0
    marker, modal = bool(_MARKER.search(sentence)), bool(_MODAL.search(sentence))
    if not (marker or modal):
        return 0
    reason = reasoned or bool(_REASON.search(sentence))
    subject = bool(code_names(sentence) or files_in(sentence))
    number = bool(numbers_in(sentence))
    if not (reason or subject):
        return 0
    return 2 * marker + modal + reason + subject + number


def _may_rule(sentence: str) -> bool:
    """Whether ``sentence`` holds a word some marker or modal needs (cheap: most do not)."""
    lower = sentence.lower()
    if "->" in lower or " it is" in lower:
        return True
    return not _KEYWORDS.isdisjoint(_WORDS.findall(lower))


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
        following = cut[i + 1] if i + 1 < len(cut) else ""
        joiner = " " if sentence[-1:] in ".!;:" else ". "
        said = sentence
        if points < THRESHOLD and following and _may_rule(sentence) and _gives_reason(following):
            # A rule that names nothing and gives no reason ("Keep it at 7."), its reason next.
            points = score(sentence, reasoned=True)
            said, skip_next = f"{sentence}{joiner}{following}", True
        elif points >= THRESHOLD and following and _completes(sentence, following):
            said, skip_next = f"{sentence}{joiner}{following}", True
        if points < THRESHOLD:
            skip_next = False
            continue
        said = said[:MAX_STATEMENT_CHARS]
        found.append(Statement(said, tuple(code_names(said)), tuple(files_in(said)), points))
    return found


def commit_rule(message: str) -> Statement | None:
    """A commit message that sets a code name to a number and says why ("search: explain why
    SEARCH_POOL_SIZE is 12" over a list of reasons, "POOL_SIZE 40 -> 20" over "the replica
    allows 25"), though no sentence of it states a rule the way :func:`score` reads one: the
    whole message, at :data:`THRESHOLD`. None when it sets nothing or gives no reason."""
    cut = sentences(message)
    if not any(_SETS_VALUE.search(s) for s in cut):
        return None
    explained = any(_REASON.search(s) or _EXPLAINS.search(s) for s in cut[1:])
    if not explained and not re.search(r"\bwhy\b", cut[0], _I):
        return None
    text = " ".join(c if c[-1:] in ".!?;:" else f"{c}." for c in cut)[:MAX_STATEMENT_CHARS]
    return Statement(text, tuple(code_names(text)), tuple(files_in(text)), THRESHOLD)


def has_reason(text: str) -> bool:
    """Whether ``text`` (a kept decision) gives a reason in its own words."""
    return bool(_REASON.search(text))


def reason_given(reply: str, asked: str | None) -> str | None:
    """The reason ``reply`` opens with when it answers a person's "why?" (``asked``) and
    states no rule itself ("Why 4 and not 5?", answered "The window allows 5 calls; anything above
    fails."): its first sentence, or None."""
    if not asked or not re.search(r"\bwhy\b", asked, _I) or statements(reply):
        return None
    cut = sentences(reply)
    return cut[0] if cut and _gives_reason(cut[0]) else None


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
