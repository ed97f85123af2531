"""JSON Schema helpers for the LLM stub: check a strict schema, build an instance of it.

Only the subset our reply schemas use (object, array, string, number,
integer, boolean, null, enum, anyOf); enough to answer "within" a
``json_schema`` request the way a constraining server would.
"""

from __future__ import annotations

import re
from typing import Any

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def strict_problems(response_format: dict[str, Any]) -> list[str]:
    """Why a ``json_schema`` response_format would be refused by a strict server (none: ok)."""
    spec = response_format.get("json_schema")
    if not isinstance(spec, dict):
        return ["json_schema must be an object"]
    problems = []
    if not isinstance(spec.get("name"), str) or not _NAME.match(spec["name"]):
        problems.append("json_schema.name must match ^[A-Za-z0-9_-]{1,64}$")
    schema = spec.get("schema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return [*problems, "json_schema.schema must be an object schema"]
    if spec.get("strict") is True:
        problems += _strict(schema, "schema")
    return problems


def _strict(node: object, where: str) -> list[str]:
    if isinstance(node, list):
        return [p for i, item in enumerate(node) for p in _strict(item, f"{where}[{i}]")]
    if not isinstance(node, dict):
        return []
    problems = []
    if "$ref" in node:
        problems.append(f"{where}: $ref is not inlined")
    if node.get("type") == "object":
        properties = node.get("properties", {})
        if node.get("additionalProperties") is not False:
            problems.append(f"{where}: additionalProperties must be false")
        if sorted(node.get("required", [])) != sorted(properties):
            problems.append(f"{where}: every property must be required")
    for key, value in node.items():
        problems += _strict(value, f"{where}.{key}")
    return problems


def instance_of(schema: dict[str, Any]) -> Any:
    """The simplest value that fits ``schema``: first enum value, shortest lists and strings."""
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        options = [o for o in schema["anyOf"] if o.get("type") != "null"] or schema["anyOf"]
        return instance_of(options[0])
    kind = schema.get("type")
    if kind == "object":
        return {name: instance_of(sub) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [instance_of(schema.get("items", {})) for _ in range(schema.get("minItems", 0))]
    if kind == "string":
        return "s" * max(1, int(schema.get("minLength", 1)))
    if kind in ("number", "integer"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return True
    return None
