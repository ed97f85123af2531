"""The secret filter: what must never be kept, found in text and replaced by a marker.

Every text memory takes in passes through :func:`redact` at the door
(:mod:`cognition.sense.door`). A secret found is replaced by ``[secret: KIND]``
(``[secret: aws-access-key]``), a ``<private>…</private>`` span by
``[private]``: the marker says what was there, never what it was, so a
secret is never recalled because it was never kept.

The detectors are the kinds Yelp's detect-secrets looks for (AWS keys,
GitHub tokens, private keys, JWTs, Slack and Stripe keys, passwords in URLs,
values assigned to secret-sounding names), with patterns written here:
importing detect-secrets costs about 110 ms, more than a whole hook may take
(docs/operations.md, "Secrets"). Unlike its entropy plugins, a bare
high-entropy string counts only after a secret-sounding name: content
hashes, ids and vectors are everywhere in memory and are not secrets.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

PRIVATE = "[private]"


def marker(kind: str) -> str:
    """What a secret of ``kind`` becomes in memory."""
    return f"[secret: {kind}]"


@dataclass(frozen=True)
class Detector:
    """One kind of secret: its name and the pattern that finds it.

    ``group``: the pattern's group that is the secret (0: the whole match);
    the rest of the match (a name, a URL's user and host) is kept.
    """

    kind: str
    pattern: re.Pattern[str]
    group: int = 0
    accept: Callable[[str], bool] | None = None
    hints: tuple[str, ...] = ()
    """Strings one of which every secret of this kind holds: without any, the text is skipped."""
    folded: bool = False
    """The hints are lower case and looked for in the lower-cased text."""


def _entropy(value: str) -> float:
    """Shannon entropy of ``value``, in bits per character."""
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


_DOTTED_NAME = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+(?:\(\))?")
_REFERENCE = re.compile(r"\$\{?\w+\}?|%\(?\w+\)?s?|<[\w -]+>|\{\{[^}]*\}\}|\*+|x+|X+")


def _looks_secret(value: str) -> bool:
    """A value given to a secret-sounding name that is itself a secret, not a reference.

    A reference (``settings.password``, ``$TOKEN``, ``<your key>``, ``****``)
    or a word names a secret kept elsewhere; a mix of letters and digits, or a
    string of high entropy, is one.
    """
    if value.startswith(("[secret", "[private")):  # a marker already put there
        return False
    if _DOTTED_NAME.fullmatch(value) or _REFERENCE.fullmatch(value):
        return False
    mixed = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
    return mixed or _entropy(value) >= 3.0


_KEYWORD = (
    r"(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key"
    r"|auth[_-]?key|private[_-]?key|credentials?|client[_-]?secret)"
)

DETECTORS: tuple[Detector, ...] = (
    Detector(
        "private-key",
        re.compile(
            r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,-]*)",
            re.DOTALL,
        ),
        hints=("PRIVATE KEY",),
    ),
    Detector(
        "aws-access-key",
        re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b"),
        hints=("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
    ),
    Detector(
        "aws-secret-key",
        re.compile(
            r"(?i:aws[_-]?secret(?:[_-]?access)?[_-]?key|secret[_-]?access[_-]?key)"
            r"[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        group=1,
        hints=("secret",),
        folded=True,
    ),
    Detector(
        "github-token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
        hints=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    Detector("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"), hints=("glpat-",)),
    Detector(
        "jwt",
        re.compile(r"\beyJ[A-Za-z0-9_-]{8,4000}\.eyJ[A-Za-z0-9_-]{8,8000}\.[A-Za-z0-9_-]{8,4000}"),
        hints=("eyJ",),
    ),
    Detector(
        "slack-webhook",
        re.compile(r"https://hooks\.slack\.com/services/T\w+/B\w+/\w+"),
        hints=("hooks.slack.com",),
    ),
    Detector("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), hints=("xox",)),
    Detector(
        "stripe-key",
        re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
        hints=("_live_", "_test_"),
    ),
    Detector("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}"), hints=("sk-ant-",)),
    Detector(
        "openai-key", re.compile(r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}"), hints=("sk-",)
    ),
    Detector("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), hints=("AIza",)),
    Detector("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), hints=("npm_",)),
    # A team server's bearer token (scheduler/claude/tokens.py): nous_ and 32 random bytes.
    Detector(
        "nous-token", re.compile(r"\bnous_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])"), hints=("nous_",)
    ),
    Detector(
        "basic-auth",
        re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\s:/@\"']{1,200}:([^\s/@\"']{1,200})@"),
        group=1,
        accept=lambda value: not value.startswith("[secret"),
        hints=("://",),
    ),
    Detector(
        "keyword-secret",
        re.compile(
            rf"(?<!\[)(?i:{_KEYWORD})[\"']?\s*(?:[:=]|:=|=>)\s*[\"']?([^\s\"',;`]{{6,}})",
        ),
        group=1,
        accept=_looks_secret,
        hints=("pass", "pwd", "secret", "token", "key", "credential"),
        folded=True,
    ),
)
# The rest of a key whose head was cut off (a clipped output keeps its tail): its END line
# and the lines of key material just above it.
_KEY_END = re.compile(r"-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_LINE = re.compile(r"[A-Za-z0-9+/=]{16,128}[ \t]*\r?")
_KEY_LINES_ABOVE = 200

_PRIVATE_SPAN = re.compile(r"<private>.*?(?:</private>|\Z)", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class Redacted:
    """A text after the filter, and the kinds of what was taken out (in order, once each)."""

    text: str
    kinds: tuple[str, ...] = ()


def redact(text: str) -> Redacted:
    """``text`` with every ``<private>`` span and every secret found replaced by its marker."""
    kinds: list[str] = []
    if "<private>" in text.lower():
        text, n = _PRIVATE_SPAN.subn(PRIVATE, text)
        if n:
            kinds.append("private")
    lowered = text.lower()
    for detector in DETECTORS:
        within = lowered if detector.folded else text
        if detector.hints and not any(hint in within for hint in detector.hints):
            continue
        text = _apply(detector, text, kinds)
        if detector.folded:
            lowered = text.lower()
    if "PRIVATE KEY-----" in text:
        text = _key_tails(text, kinds)
    return Redacted(text, tuple(dict.fromkeys(kinds)))


def _key_tails(text: str, kinds: list[str]) -> str:
    """``text`` without the key material left above an END line whose BEGIN was cut off."""
    out: list[str] = []
    done = 0
    for end in _KEY_END.finditer(text):
        lines = text[done : end.start()].split("\n")
        above = 0
        # lines[-1] is what stands before END on its own line (empty for a clean key).
        while above < min(_KEY_LINES_ABOVE, len(lines) - 1):
            if not _KEY_LINE.fullmatch(lines[-2 - above]):
                break
            above += 1
        if above == 0:
            continue
        kept = "\n".join(lines[: len(lines) - 1 - above])
        out.append(kept + ("\n" if kept else "") + marker("private-key"))
        kinds.append("private-key")
        done = end.end()
    out.append(text[done:])
    return "".join(out)


def _apply(detector: Detector, text: str, kinds: list[str]) -> str:
    """``text`` with what ``detector`` finds replaced; its kind noted in ``kinds`` if found."""

    def replace(match: re.Match[str]) -> str:
        value = match.group(detector.group)
        if detector.accept is not None and not detector.accept(value):
            return match.group(0)
        kinds.append(detector.kind)
        start, end = match.span(detector.group)
        whole = match.group(0)
        offset = match.start(0)
        return whole[: start - offset] + marker(detector.kind) + whole[end - offset :]

    return detector.pattern.sub(replace, text)
