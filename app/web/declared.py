"""An API answer cut to its documented response schema: every key the schema does not declare is dropped, at every
level it describes (nested answers, lists of them, maps of them), so a key a rule set or the service adds to its
dict reaches a client only once the OpenAPI document says what it is. Values are left as they are (no marshmallow
dump: no conversion, and a fraction of its cost on a list of hundreds of legal orders); a free-form field
(`fields.Dict()` without values, such as a view or a preview) passes whole."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields

Cut = Callable[[Any], Any]


def keep_declared(schema: Schema | type[Schema]) -> Cut:
    """The function that cuts an answer (an object, or a list of them for a `many` schema) to `schema`'s fields."""
    schema = schema() if isinstance(schema, type) else schema
    inner = {field.data_key or name: _cut(field) for name, field in schema.fields.items() if not field.load_only}

    if all(cut is None for cut in inner.values()):  # a flat answer (a legal order): only keys to drop
        declared = inner.keys()

        def one(answer: Any) -> Any:
            if not isinstance(answer, dict) or answer.keys() <= declared:  # nothing to drop: as it is (only encoded)
                return answer
            return {key: value for key, value in answer.items() if key in inner}
    else:
        def one(answer: Any) -> Any:
            if not isinstance(answer, dict):
                return answer
            return {key: value if inner[key] is None or value is None else inner[key](value)
                    for key, value in answer.items() if key in inner}

    return _each(one) if schema.many else one


def _cut(field: fields.Field) -> Cut | None:
    """How a field's value is cut; None: it is taken as it is."""
    if isinstance(field, fields.Nested):
        nested = field.schema  # the schema instance, `many` included (fields.Nested(..., many=True) too)
        return keep_declared(nested)
    if isinstance(field, fields.List):
        item = _cut(field.inner)
        return None if item is None else _each(item)
    if isinstance(field, fields.Mapping) and field.value_field is not None:
        value = _cut(field.value_field)
        return None if value is None else lambda mapping: {k: value(v) for k, v in mapping.items()}
    return None


def _each(cut: Cut) -> Cut:
    return lambda items: [cut(item) for item in items] if isinstance(items, list) else items
