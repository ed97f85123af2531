"""Lucene query strings for full-text recall, built from free text by keeping words only.

Nothing from the input reaches Lucene's parser as syntax: words are runs of
letters and digits, lowercased, and escaped anyway; everything else is a
separator. The result travels to Neo4j as a query parameter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Lucene's operators and syntax characters; words are escaped even though
# lucene_query keeps letters and digits only, so a change there stays safe.
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
# Letters and digits: "_" splits words, as Lucene's standard analyzer does not.
_WORD = re.compile(r"[^\W_]+")
# Where every Lucene analyzer splits a token (Unicode word break rules): spaces and hyphens.
_ID_SEPARATORS = re.compile(r"[\s\-]+")


def query_words(texts: Iterable[str], *, max_terms: int = 32, min_length: int = 3) -> list[str]:
    """The words a Lucene query of ``texts`` searches for: lowercased, no stop words, no repeats."""
    seen: dict[str, None] = {}
    for text in texts:
        for word in _WORD.findall(text.lower()):
            if len(word) >= min_length and word not in _STOP_WORDS:
                seen.setdefault(word, None)
            if len(seen) >= max_terms:
                return list(seen)
    return list(seen)


def lucene_query(texts: Iterable[str], *, max_terms: int = 32, min_length: int = 3) -> str:
    """A Lucene query matching any word of ``texts``: ``"kant OR critique"``, or ``""``.

    Words are runs of letters and digits, lowercased (so ``AND``/``OR``/``NOT``
    are plain words), shorter ones and repeats dropped, the first
    ``max_terms`` kept, and each escaped. Everything else in the input, Lucene
    syntax included, is a separator and never reaches the parser.
    """
    words = query_words(texts, max_terms=max_terms, min_length=min_length)
    return " OR ".join(_LUCENE_SPECIAL.sub(r"\\\1", word) for word in words)


# Words so common they would match almost everything and crowd out the rest.
_STOP_WORDS = frozenset(
    {
        "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was",
        "one", "our", "out", "has", "him", "his", "how", "its", "may", "new", "now", "old", "see",
        "two", "way", "who", "did", "get", "let", "put", "say", "she", "too", "use", "that",
        "with", "this", "from", "have", "what", "when", "where", "which", "will", "would",
        "there", "their", "them", "then", "than", "they", "been", "into", "were", "your", "about",
        "could", "should", "does", "done", "just", "like", "only", "some", "such", "very", "also",
        "more", "most", "why",
    }
)  # fmt: skip


def agent_query(words: str, agent_id: str) -> str:
    """``words`` (from :func:`lucene_query`) restricted to one agent: ``+agent_id:"…" +(…)``.

    For the ``*_words`` full-text indexes, which hold ``agent_id`` as a field,
    so Lucene returns that agent's hits only; ``""`` stays ``""``. The id is
    given as one required clause per piece between hyphens and spaces (where
    any analyzer splits it), not one phrase: a phrase reads the positions of
    every candidate, and with one agent holding most of the index that cost
    as much as the words themselves (measured at 1M nodes: 8.1 against
    4.5 ms). Pieces in another order ("b-a" beside "a-b") would also match, so
    a query filters by ``agent_id`` again, as recall does.
    """
    return scoped_query(words, "agent_id", agent_id)


def scoped_query(words: str, field: str, value: str) -> str:
    """``words`` restricted to the entries whose ``field`` holds ``value`` (as
    :func:`agent_query` does for ``agent_id``; ``decision_words`` by ``project``). ``field`` is
    a name in code, never from input."""
    if not words:
        return ""
    pieces = [p for p in _ID_SEPARATORS.split(value) if p] or [value]
    clauses = " ".join(f'+{field}:"{_quoted(piece)}"' for piece in pieces)
    return f"{clauses} +({words})"


def _quoted(text: str) -> str:
    """``text`` inside a Lucene phrase: backslashes and quotes escaped."""
    return text.replace("\\", "\\\\").replace('"', '\\"')
