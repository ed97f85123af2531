"""The error root of the self-improvement package."""

from __future__ import annotations


class RSIError(Exception):
    """Something in a self-improvement cycle failed; the cycle records it and the daemon goes on."""
