"""When a later decision replaces an earlier one: the same subject, close in meaning.

Two decisions are on the same subject when they name a code name in common
(``MAX_ATTEMPTS``, or ``RETRIER_MAX_ATTEMPTS`` and its tail ``MAX_ATTEMPTS``),
or a file in common (or a code name made on a file's name:
``PARSER_MAX_ATTEMPTS`` and ``src/parser.py``), or, naming neither, say much
the same words. Two decisions that both name code names, none in common, are
about different code even in one file (``REPORTS_TIMEOUT_S`` and
``REPORTS_MAX_ATTEMPTS`` in ``src/reports.py``), and two that name files, none
in common and no code, are about different files: neither replaces the other;
nor does one naming code replace one naming no code nor file, or the reverse.
Close in meaning is measured on their words (numbers left out: an amendment
changes the number and keeps the words): the share of words in common
(Jaccard), over a threshold that is lower when a code name is shared (the
name already says what they are about). Restating a decision word for
word is not a new one: it is a repeat.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath as Path

from graph.store.lucene import query_words

NAME_SIMILARITY = 0.12
"""Sharing a code name, words this much alike: the same rule amended."""
FILE_SIMILARITY = 0.3
"""Sharing only a file, words this much alike."""
WORD_SIMILARITY = 0.45
"""Naming no code at all, words this much alike."""
REPEAT_SIMILARITY = 0.9


def words(text: str) -> frozenset[str]:
    """The content words of ``text`` (lowercase, stop words and numbers left out)."""
    return frozenset(w for w in query_words([text], max_terms=200) if not re.fullmatch(r"\d+", w))


def similarity(a: str, b: str) -> float:
    """Jaccard similarity of the content words of ``a`` and ``b``."""
    left, right = words(a), words(b)
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def is_repeat(new_text: str, old_text: str) -> bool:
    """``new_text`` says what ``old_text`` said (same words, same numbers)."""
    same_numbers = re.findall(r"\d+(?:\.\d+)?", new_text) == re.findall(r"\d+(?:\.\d+)?", old_text)
    return same_numbers and similarity(new_text, old_text) >= REPEAT_SIMILARITY


def _named_by_file(names: tuple[str, ...], files: tuple[str, ...]) -> bool:
    """A code name made on a file's name (``PARSER_MAX_ATTEMPTS`` and ``src/parser.py``)."""
    stems = {Path(f).stem.lower() for f in files if len(Path(f).stem) >= 3}
    parts = {p for n in names for p in re.split(r"[^a-z0-9]+", n.lower()) if p}
    return bool(stems & parts)


def _names_meet(new: tuple[str, ...], old: tuple[str, ...]) -> bool:
    """A name in common: the same, or one the other's tail after ``_`` or ``.``."""
    left, right = {n.lower() for n in new}, {n.lower() for n in old}
    if left & right:
        return True
    return any(
        a.endswith(f"_{b}") or a.endswith(f".{b}") or b.endswith(f"_{a}") or b.endswith(f".{a}")
        for a in left
        for b in right
    )


def same_subject(
    new: tuple[str, tuple[str, ...], tuple[str, ...]],
    old: tuple[str, tuple[str, ...], tuple[str, ...]],
) -> bool:
    """Whether decision ``new`` (text, subjects, files) replaces ``old`` on the same subject."""
    new_text, new_names, new_files = new
    old_text, old_names, old_files = old
    alike = similarity(new_text, old_text)
    if new_names and old_names:
        return _names_meet(new_names, old_names) and alike >= NAME_SIMILARITY
    if (
        set(new_files) & set(old_files)
        or _named_by_file(new_names, old_files)
        or _named_by_file(old_names, new_files)
    ):
        return alike >= FILE_SIMILARITY
    if (new_names or new_files) and (old_names or old_files):
        return False  # each names what it is about, and not the same thing
    if new_names or old_names:
        # One names code, the other nothing: a part of the name among the other's words
        # is as often the setting's kind ("queue", "workers") as its component; not enough.
        return False
    return alike >= WORD_SIMILARITY
