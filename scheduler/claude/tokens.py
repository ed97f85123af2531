"""The team server's bearer tokens as text: made, hashed, checked for shape.

A token is ``nous_`` and 43 URL-safe characters (32 random bytes): enough
entropy that a plain SHA-256 of it is a safe thing to store (no salt or slow
hash is needed for a secret nobody chose). The graph keeps only the hash
(:class:`graph.store.tokens.TokenStore`); the server hashes what a request
presents and looks that up.
"""

from __future__ import annotations

import hashlib
import re
import secrets

PREFIX = "nous_"
MAX_TOKEN_CHARS = 200  # a longer Authorization header is refused before it is hashed
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")


def new_token() -> str:
    """A fresh token: shown once, kept only as :func:`token_hash`."""
    return PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """The SHA-256 (hex) under which a token is kept and looked up."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def plausible(token: str) -> bool:
    """Whether ``token`` could be one of ours (before any lookup: garbage costs no query)."""
    return token.startswith(PREFIX) and len(token) <= MAX_TOKEN_CHARS and token.isascii()


def check_name(name: str) -> str | None:
    """Why ``name`` cannot name a token (None: it can): a person's handle, 1-64 characters."""
    if NAME.fullmatch(name):
        return None
    return (
        f"token name {name[:80]!r}: 1-64 letters, digits and _ . @ -, starting with a letter"
        " or digit"
    )
