"""The typed rows the stores return: one frozen dataclass per Cypher statement that returns rows.

A store turns each record into one of these before it leaves :mod:`graph.store`,
so callers read attributes that mypy checks rather than string keys that only
fail when they run. Standard-library dataclasses, not pydantic models: the
Claude Code hook path reads some of them and must not load pydantic.
"""
