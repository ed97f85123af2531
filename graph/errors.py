"""The error root of the memory package.

``GraphError`` subclasses are what the rest of Nous sees of Neo4j: driver
exceptions are wrapped here, at the package boundary, and their messages
never carry query parameters (which may hold file contents or secrets).
"""

from __future__ import annotations


class GraphError(Exception):
    """Root of every error raised by ``graph``."""


class SettingsError(GraphError, ValueError):
    """A settings file, key or value is wrong; the message names which."""


class QueryNotFoundError(GraphError, LookupError):
    """No ``cypher/<area>/<name>.cypher`` file has that name."""


class MemoryUnavailableError(GraphError, ConnectionError):
    """Neo4j cannot be reached, or refused the credentials."""


class LoginRefusedError(MemoryUnavailableError):
    """Neo4j refused the credentials (now, or less than a minute ago: not tried again yet)."""


# Neo4j's status code for a write that broke a uniqueness constraint.
CONSTRAINT_FAILED = "Neo.ClientError.Schema.ConstraintValidationFailed"


class MemoryQueryError(GraphError, RuntimeError):
    """A statement failed in Neo4j; the message names the statement, not its values."""

    code: str = ""  # Neo4j's status code, e.g. CONSTRAINT_FAILED

    @classmethod
    def failed(cls, statement: str, code: str | None, message: str | None) -> MemoryQueryError:
        """The error for ``statement`` failing with Neo4j's ``code``; a constraint's has its own."""
        kind = MemoryConstraintError if code == CONSTRAINT_FAILED else cls
        error = kind(f"{statement}: {code}: {message}")
        error.code = code or ""
        return error


class MemoryConstraintError(MemoryQueryError):
    """A write broke a uniqueness constraint (an id or a natural key already stored)."""


class Neo4jNotFoundError(GraphError, RuntimeError):
    """No Neo4j could be found or started; the message says what to install."""


class MigrationError(GraphError, RuntimeError):
    """A schema migration file could not be applied; the message names the file."""


class PathOutsideRootError(GraphError, ValueError):
    """A path resolves outside the watched root (for example through a symlink)."""


class RootInUseError(GraphError, RuntimeError):
    """Another daemon already watches this root; the message names the root and its pid."""


class RootRefusedError(GraphError, ValueError):
    """A root no daemon may watch (``/``, a system folder, a whole home); the message says why."""
