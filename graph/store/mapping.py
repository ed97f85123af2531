"""The one mapping between Neo4j node properties and the node models of :mod:`graph.models`.

Neo4j stores flat properties: strings, numbers, booleans, temporals and lists
of them. Models hold richer values, so this module is the only place that
knows how each side is written in the other:

- enums are stored as their values, nested models and maps as JSON strings,
  ``None`` is not stored at all;
- coming back, unknown properties (written by a newer version) are ignored,
  missing ones take the model's default, JSON strings are decoded where the
  model wants a map or a model, and a time Cypher turned into a string with a
  named zone (``…+01:00[Europe/Paris]``) keeps its offset and drops the name.

The driver already turns Neo4j temporals into ``datetime`` (see
:mod:`graph.store.driver`).
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Mapping
from dataclasses import asdict
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

M = TypeVar("M", bound=BaseModel)

_ZONE_NAME = re.compile(r"\[[^\]]*\]$")


def to_properties(model: BaseModel) -> dict[str, Any]:
    """``model`` as Neo4j properties: enums as values, maps and models as JSON, ``None`` dropped."""
    return changes_as_properties({key: getattr(model, key) for key in type(model).model_fields})


def changes_as_properties(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Some of a node's properties (an update), stored as :func:`to_properties` stores them."""
    stored = {key: _stored(value) for key, value in changes.items()}
    return {key: value for key, value in stored.items() if value is not None}


def from_properties(model: type[M], properties: Mapping[str, Any], **defaults: Any) -> M:
    """A ``model`` from a node's properties; ``defaults`` fill what the node lacks.

    ``agent_id=...`` is the usual default: queries that return a node's
    properties for one agent need not return its agent id too.
    """
    fields = model.model_fields
    data: dict[str, Any] = {k: v for k, v in defaults.items() if k in fields}
    for key, value in properties.items():
        field = fields.get(key)
        if field is None or value is None:
            continue
        data[key] = _loaded(field.annotation, value)
    return model.model_validate(data)


def from_row(model: type[M], row: DataclassInstance, **defaults: Any) -> M:
    """A ``model`` from a typed row that mirrors its node (:mod:`graph.store.rows.session`)."""
    return from_properties(model, asdict(row), **defaults)


def _stored(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, default=str)
    if isinstance(value, list | tuple | set | frozenset):
        return [v.value if isinstance(v, Enum) else v for v in value]
    return value


def _loaded(annotation: Any, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    kinds = _kinds(annotation)
    if str in kinds:
        return value
    if datetime in kinds:
        return _ZONE_NAME.sub("", value)
    if dict in kinds or any(isinstance(k, type) and issubclass(k, BaseModel) for k in kinds):
        try:
            return json.loads(value)
        except ValueError:
            return value  # let validation name the field
    return value


def _kinds(annotation: Any) -> frozenset[Any]:
    """The plain types an annotation allows: ``dict[str, Any] | None`` -> {dict, NoneType}.

    Kept per annotation: every string property of every node read asks, and the answer
    never changes (recall maps about a hundred nodes for each prompt).
    """
    try:
        return _KINDS[annotation]
    except KeyError:
        kinds = _kinds_of(annotation)
        _KINDS[annotation] = kinds
        return kinds
    except TypeError:  # an unhashable annotation: worked out each time
        return _kinds_of(annotation)


def _kinds_of(annotation: Any) -> frozenset[Any]:
    origin = get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        return frozenset().union(*(_kinds_of(a) for a in get_args(annotation)))
    return frozenset({origin or annotation})


_KINDS: dict[Any, frozenset[Any]] = {}
