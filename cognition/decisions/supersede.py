"""When a later decision replaces an earlier one: the same subject, close in meaning.

Two decisions are on the same subject when they name a code name in common
(``MAX_ATTEMPTS``), or a file in common (or a code name made on a file's
name: ``PARSER_MAX_ATTEMPTS`` and ``src/parser.py``), or, naming neither, say
much the same words. Close in meaning is measured on their words (numbers left out:
an amendment changes the number and keeps the words): the share of words in
common (Jaccard), over a threshold that is lower when a code name is shared
(the name already says what they are about). Restating a decision word for
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


def same_subject(
    new: tuple[str, tuple[str, ...], tuple[str, ...]],
    old: tuple[str, tuple[str, ...], tuple[str, ...]],
) -> bool:
    """Whether decision ``new`` (text, subjects, files) replaces ``old`` on the same subject."""
    new_text, new_names, new_files = new
    old_text, old_names, old_files = old
    alike = similarity(new_text, old_text)
    if {n.lower() for n in new_names} & {n.lower() for n in old_names}:
        return alike >= NAME_SIMILARITY
    if (
        set(new_files) & set(old_files)
        or _named_by_file(new_names, old_files)
        or _named_by_file(old_names, new_files)
    ):
        return alike >= FILE_SIMILARITY
    if not new_names and not old_names:
        return alike >= WORD_SIMILARITY
    return False
