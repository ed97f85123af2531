"""One value as a short cell of text: what a table and a decision's story print."""

from __future__ import annotations

from datetime import datetime


def cell(value: object) -> str:
    """One table cell: short times, rounded numbers, one line."""
    if value is None:
        return "-"
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return " ".join(str(value).split())
