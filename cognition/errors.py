"""The error root of the cognition package."""

from __future__ import annotations


class CognitionError(Exception):
    """Root of every error raised by ``cognition``."""


class LLMUnavailableError(CognitionError, ConnectionError):
    """The OpenAI-compatible endpoint does not answer (or is in backoff after failing)."""


class TemplateError(CognitionError, ValueError):
    """An action template file, template or parameter is wrong; the message names which."""


class LLMTimeoutError(LLMUnavailableError):
    """One request took longer than its timeout; the endpoint is not thought dead for it."""


class LLMBusyError(LLMUnavailableError):
    """A decision did not get its turn in time (background work held it); the rules decide."""
