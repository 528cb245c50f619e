"""Event types, declared once as frozen dataclasses; marshmallow schemas derived from them.

Payloads are validated when written (`encode`) and by the full read (`decode`: `verify`, import, anything read
from outside the store). Each type has a schema version; an upcaster turns a payload stored under version N into
version N+1, so games stored under an older schema still load.

Writing checks each field against its declared type once, in a checker made from the dataclass's type hints
(`_plain_payload`): a value already of its JSON type is the payload as the schema would dump and accept it, so
the schema runs only for anything else (a tuple for a list, an int for a float, a value of the wrong type), which
it converts or refuses exactly as before.

Playing reads the store's own events through `decode_stored`: a current-version payload in the store was
validated by `encode` when appended (or by the full read of an import), and the hash chain seals it since, so
it becomes its event object directly, without a second schema pass; an older version is upcast and validated.
"""
from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Upcaster = Callable[[dict], dict]


class EventSchemaError(ValueError):
    """A payload does not match its declared event type (unknown type, bad field, future version)."""


@dataclass(frozen=True)
class EventSpec:
    name: str
    version: int
    cls: type
    upcasters: dict[int, Upcaster] = field(default_factory=dict)
    floats: tuple[str, ...] = ()  # fields typed float: JSON may store 2 for 2.0, the schema loads a float
    plain: Callable[[Any], dict | None] | None = None  # the checker of `_plain_payload`, made at registration

    @property
    def schema(self):
        """The marshmallow schema derived from the dataclass, built the first time it is needed: a command that
        only reads the store's events never imports marshmallow (issue 15)."""
        schema = _SCHEMAS.get(self.cls)
        if schema is None:
            import marshmallow
            import marshmallow_dataclass

            schema = _SCHEMAS[self.cls] = marshmallow_dataclass.class_schema(self.cls)(unknown=marshmallow.RAISE)
        return schema


def _float_fields(cls: type) -> tuple[str, ...]:
    hints = typing.get_type_hints(cls)
    return tuple(f.name for f in dataclasses.fields(cls) if float in (hints[f.name], *typing.get_args(hints[f.name])))


_SCHEMAS: dict[type, Any] = {}
_BY_NAME: dict[str, EventSpec] = {}
_BY_CLASS: dict[type, EventSpec] = {}
# type name (aliases too) -> (current version, class), for the types `decode_stored` builds as they are (no float
# field to convert): a long fold looks a row's class up here itself, without a call a row (app/projections/state.py
# `fold_rows`); any other version or type goes through `decode_stored`
DIRECT: dict[str, tuple[int, type]] = {}


def event_type(name: str, version: int = 1, upcasters: dict[int, Upcaster] | None = None,
               aliases: tuple[str, ...] = ()):
    """Class decorator: register a frozen dataclass as the event type `name` at schema `version`.

    `upcasters[n]` converts a payload of version n to version n + 1. `aliases` are names the same event was
    stored under before (a game's own "snc.GameEnded" before the shared "game.GameEnded"): stored events keep
    their name and hash, and read as this type; new events are written under `name`.
    """

    def register(cls: type) -> type:
        if name in _BY_NAME and _BY_NAME[name].cls.__qualname__ != cls.__qualname__:
            raise ValueError(f"event type {name!r} declared twice")
        missing = [v for v in range(1, version) if v not in (upcasters or {})]
        if missing:
            raise ValueError(f"event type {name!r} v{version} lacks upcasters from versions {missing}")
        spec = EventSpec(name, version, cls, dict(upcasters or {}), _float_fields(cls), _plain_payload(cls))
        _BY_NAME[name] = spec
        _BY_CLASS[cls] = spec
        _direct(name, spec)
        cls.event_type = name
        for alias in aliases:
            event_alias(alias, cls)
        return cls

    return register


def event_alias(name: str, cls: type) -> None:
    """Read events stored as `name` as the registered type `cls` (same payload fields): a game that moves to a
    shared event declares the name it stored it under, in its own package (SNC: "snc.PhaseEnded")."""
    if name in _BY_NAME and _BY_NAME[name].cls.__qualname__ != cls.__qualname__:
        raise ValueError(f"event type {name!r} declared twice")
    _BY_NAME[name] = _BY_CLASS[cls]
    _direct(name, _BY_CLASS[cls])


def _direct(name: str, spec: EventSpec) -> None:
    if spec.floats:
        DIRECT.pop(name, None)
    else:
        DIRECT[name] = (spec.version, spec.cls)


def spec_of(event: Any) -> EventSpec:
    try:
        return _BY_CLASS[type(event)]
    except KeyError:
        raise EventSchemaError(f"{type(event).__name__} is not a registered event type") from None


def encode(event: Any) -> tuple[str, int, dict]:
    """Event object -> (type name, schema version, validated payload): the plain check's payload where every value
    is already of its JSON type (`_plain_payload`), else the schema's dump, validated."""
    spec = spec_of(event)
    payload = spec.plain(event) if spec.plain is not None else None
    if payload is not None:
        return spec.name, spec.version, payload
    try:
        payload = spec.schema.dump(event)
    except (ValueError, TypeError) as exc:
        raise EventSchemaError(f"{spec.name}: cannot encode {event!r}: {exc}") from None
    errors = spec.schema.validate(payload)
    if errors:
        raise EventSchemaError(f"{spec.name}: invalid payload {errors}")
    return spec.name, spec.version, payload


def _plain_check(hint: Any) -> Callable[[Any], Any] | None:
    """For a field of type `hint`: a function giving the value as the schema would dump and then accept it, or
    _NOT_PLAIN when the value is not simply of that type (the schema then converts or refuses it); None for a type
    this does not read (the whole event then always goes through the schema)."""
    if hint is str or hint is int or hint is bool:  # exactly that type: a bool in an int field takes the schema
        return lambda value: value if type(value) is hint else _NOT_PLAIN
    if hint is float:  # the schema refuses NaN and infinities
        return lambda value: value if type(value) is float and math.isfinite(value) else _NOT_PLAIN
    if hint is dict:  # the schema's Dict dumps a shallow copy and reads nothing inside
        return lambda value: dict(value) if type(value) is dict else _NOT_PLAIN
    if hint is list:  # a List of Raw: a copy, nothing inside read
        return lambda value: list(value) if type(value) is list else _NOT_PLAIN
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list and args == (str,):
        return lambda value: (list(value) if type(value) is list and all(type(item) is str for item in value)
                              else _NOT_PLAIN)
    if origin is list and args == (dict,):
        return lambda value: ([dict(item) for item in value]
                              if type(value) is list and all(type(item) is dict for item in value) else _NOT_PLAIN)
    if origin is typing.Literal and all(type(choice) is str for choice in args):
        return lambda value: value if type(value) is str and value in args else _NOT_PLAIN
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        inner = _plain_check(next(arg for arg in args if arg is not type(None)))
        return None if inner is None else lambda value: None if value is None else inner(value)
    return None


_NOT_PLAIN = object()


def _plain_payload(cls: type) -> Callable[[Any], dict | None] | None:
    """The payload of an event of `cls` whose every field holds a value of its declared JSON type, as the schema
    would dump and validate it (same keys in the same order, lists and dicts copied), without the schema; None for
    an event with any other value. None for a class with a field of a type not read here, with metadata (the
    schema would read it) or left out of `__init__`: such events always take the schema."""
    hints = typing.get_type_hints(cls)
    checks = []
    for f in dataclasses.fields(cls):
        check = _plain_check(hints[f.name])
        if check is None or f.metadata or not f.init:
            return None
        checks.append((f.name, check))

    def plain(event: Any) -> dict | None:
        payload = {}
        for name, check in checks:
            value = check(getattr(event, name))
            if value is _NOT_PLAIN:
                return None
            payload[name] = value
        return payload

    return plain


def _spec(name: str, version: int) -> EventSpec:
    spec = _BY_NAME.get(name)
    if spec is None:
        raise EventSchemaError(f"unknown event type {name!r}")
    if not isinstance(version, int) or version < 1 or version > spec.version:
        raise EventSchemaError(f"{name}: schema version {version!r} is not known (current {spec.version})")
    return spec


def decode_stored(name: str, version: int, payload: dict) -> Any:
    """An event the store holds -> event object. A current-version payload was validated when it was written and
    is sealed by the chain: it is built directly (a payload that does not even fit the fields is still an
    EventSchemaError). Older versions take the full `decode`."""
    spec = _BY_NAME.get(name)
    if spec is None or version != spec.version:
        return decode(name, version, payload)
    if spec.floats:
        payload = {k: float(v) if k in spec.floats and isinstance(v, int) else v for k, v in payload.items()}
    try:
        return spec.cls(**payload)
    except TypeError as exc:
        raise EventSchemaError(f"{name} v{version}: invalid payload {exc}") from None


def decode(name: str, version: int, payload: dict) -> Any:
    """(type, version, payload) -> event object, validated through its schema, upcasting old versions first."""
    spec = _spec(name, version)
    for v in range(version, spec.version):
        try:
            payload = spec.upcasters[v](dict(payload))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise EventSchemaError(f"{name} v{v}: cannot upcast payload ({type(exc).__name__}: {exc})") from None
    schema = spec.schema
    from marshmallow import ValidationError  # imported by `schema`

    try:
        return schema.load(payload)
    except (ValidationError, TypeError) as exc:
        detail = exc.messages if isinstance(exc, ValidationError) else str(exc)
        raise EventSchemaError(f"{name} v{version}: invalid payload {detail}") from None


def known_types() -> list[str]:
    return sorted(_BY_NAME)
