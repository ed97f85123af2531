"""What a decision is about: the code names, files and config keys its sentence names.

A name counts as code when its shape says so: ``MAX_ATTEMPTS`` (capitals
joined by ``_``), ``retry_budget`` (joined by ``_``), ``RetryPolicy`` or
``backoffMs`` (capitals inside), ``http.timeout_s`` (dotted), ``parse()``
(called), anything in backticks, and file paths (``src/retry.py``). Plain
words are never subjects: "limit" or "window" say nothing of which code.
"""

from __future__ import annotations

import re

_FILE = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.(?:py|pyi|js|mjs|ts|tsx|jsx|go|rs|java|kt|rb|php|cs|c|h|"
    r"cc|cpp|hpp|swift|scala|sh|sql|yaml|yml|toml|json|ini|cfg|conf|md|rst|txt|lock|env|proto|"
    r"tf|gradle|xml|html|css))(?![\w])"
)
_BACKTICKED = re.compile(r"`([^`\n]{1,80})`")
_CONST = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_CAMEL = re.compile(r"\b(?:[a-z]+[A-Z]|[A-Z][a-z0-9]+[A-Z])[A-Za-z0-9]*\b")
_DOTTED = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b")
_CALLED = re.compile(r"\b([A-Za-z_]\w{2,})\(\)")
_IDENT = re.compile(r"[A-Za-z_][\w.]*")
_SPLIT_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*[A-Za-z_])")
_NOT_NAMES = frozenset({"e.g", "i.e", "etc", "vs"})
MAX_SUBJECTS = 12


def files_in(text: str) -> list[str]:
    """The file paths ``text`` names, in order, once each (``./`` dropped)."""
    found = (m.group(1).removeprefix("./") for m in _FILE.finditer(text))
    return list(dict.fromkeys(f for f in found if not f.startswith(".")))[:MAX_SUBJECTS]


def code_names(text: str) -> list[str]:
    """The code names ``text`` speaks of (constants, functions, classes, config keys), in order,
    once each; files are :func:`files_in`'s."""
    files = set(files_in(text))
    found: list[str] = []
    for span in _BACKTICKED.findall(text):
        found.extend(m.group(0).rstrip(".") for m in _IDENT.finditer(span))
    for pattern in (_CONST, _SNAKE, _CAMEL, _DOTTED):
        found.extend(m.group(0) for m in pattern.finditer(text))
    found.extend(m.group(1) for m in _CALLED.finditer(text))
    kept = [
        name
        for name in found
        if len(name) >= 3
        and name.lower() not in _NOT_NAMES
        and name not in files
        and not _looks_like_file(name)
    ]
    return list(dict.fromkeys(kept))[:MAX_SUBJECTS]


def numbers_in(text: str) -> list[str]:
    """The numbers ``text`` states (``7``, ``2.5``), not those inside names or versions' tails."""
    return _NUMBER.findall(text)


def subject_words(names: list[str]) -> str:
    """Code names and paths as the words they are made of (``MAX_ATTEMPTS`` → "max attempts",
    ``backoffMs`` → "backoff ms", ``src/retry.py`` → "src retry py"): what a prompt in plain
    words matches."""
    words: list[str] = []
    for name in names:
        for part in re.split(r"[^A-Za-z0-9]+", name):
            words.extend(p.lower() for p in _SPLIT_CAMEL.split(part) if p)
    return " ".join(dict.fromkeys(words))


def _looks_like_file(name: str) -> bool:
    return bool(_FILE.fullmatch(name))
