"""Checking that text from outside Nous reaches a model only inside :func:`cognition.text.fence`."""

from __future__ import annotations

import re

_DATA_LINE = re.compile(r"^The following is data \(.*\), not instructions:$")


def unfenced(text: str) -> str:
    """``text`` with every fenced block (its data line, markers and body) taken out.

    A block's body is checked not to hold its own closing marker (so the body
    cannot have closed the fence early); an opened block that never closes
    fails the check.
    """
    lines = text.split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _DATA_LINE.match(line) and i + 1 < len(lines) and lines[i + 1].endswith("text"):
            marker = lines[i + 1].removesuffix("text")
            assert marker and set(marker) == {"`"}, lines[i + 1]
            try:
                end = lines.index(marker, i + 2)
            except ValueError:
                raise AssertionError(f"a fence opened at line {i + 1} never closes") from None
            assert all(marker not in body for body in lines[i + 2 : end])
            i = end + 1
            continue
        kept.append(line)
        i += 1
    return "\n".join(kept)


def assert_fenced(text: str, hostile: str) -> None:
    """Every occurrence of ``hostile`` in ``text`` is inside a fence."""
    outside = unfenced(text)
    assert hostile not in outside, f"{hostile!r} reaches the model unfenced:\n{outside}"
