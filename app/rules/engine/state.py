"""What every game's state has beside its own pieces, and how any game's state is saved in a snapshot.

`Memo` is a mixin for any game's frozen State: what is derived from a position (zones of control, a stack's
reach, a unit's supply) computed once per state and kept beside it, for the hundreds of orders the list of legal
orders tries against one position (app/rules/legal.py).

`SequencedState` is a mixin for a game's frozen State dataclass: the decisions the sequence waits for
(`pending`, a tuple of {"kind", "side", ...data} dicts, first first), the result (`winner`, `reason`), and the
game's data (`data`: map, units, tables, as this game was set up; never saved, never compared). The shared
events (app/rules/engine/events.py) change a state only through its methods, so a game whose fields are named
otherwise overrides them.

`encode`/`decode` turn any such dataclass into JSON and back from its type hints (dataclasses, dicts, lists,
tuples, frozensets, unions with None, plain values), so a game writes no codec of its own.
"""
from __future__ import annotations

import dataclasses
import types
import typing
import weakref
from dataclasses import dataclass, field
from functools import cache
from typing import Any

OVER = "over"


def replace(obj: Any, /, **changes) -> Any:
    """`dataclasses.replace` for the frozen dataclasses of a game's state, a copy of `obj`'s fields with
    `changes` (each a field of its class), made without re-running `__init__`: events fold into a new state on
    every order and on every order the list of legal orders tries (hundreds a position), where the generic
    `dataclasses.replace` took most of the fold. A class with a `__post_init__`, slots or fields outside
    `__init__` is copied by `dataclasses.replace` itself."""
    names = _plain_fields(type(obj))
    if names is None:
        return dataclasses.replace(obj, **changes)
    unknown = changes.keys() - names
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    new = object.__new__(type(obj))
    attrs = new.__dict__
    attrs.update(obj.__dict__)
    attrs.update(changes)
    return new


@cache
def _plain_fields(cls: type) -> frozenset[str] | None:
    """The field names of a dataclass `replace` may copy directly, or None."""
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__") or not dataclasses.is_dataclass(cls):
        return None
    found = dataclasses.fields(cls)
    return None if any(not f.init for f in found) else frozenset(f.name for f in found)

# What each live state has derived from its position (Memo.memo), by object id; an entry goes with its state.
_MEMO: dict[int, dict] = {}
_UNKNOWN = object()


class Memo:
    """A state that keeps what is derived from its position. A state never changes (events make new ones), so
    `memo(key, compute)` runs `compute()` once per state and key. Kept outside the state (keyed by the object,
    dropped with it): equality, snapshots, the codec and a copy made from its fields never see it."""

    def memo(self, key, compute):
        cache = _MEMO.get(id(self))
        if cache is None:
            cache = _MEMO[id(self)] = {}
            weakref.finalize(self, _MEMO.pop, id(self), None)
        found = cache.get(key, _UNKNOWN)  # one lookup (a key's hash is found again at each): asked 10^5 times a game
        if found is _UNKNOWN:
            found = cache[key] = compute()
        return found


@dataclass(frozen=True, kw_only=True)
class SequencedState(Memo):
    pending: tuple = ()
    winner: str | None = None
    reason: str = ""
    data: Any = field(default=None, compare=False, repr=False)

    def require(self, kind: str, side: str, data: dict):
        return replace(self, pending=(*self.pending, {**data, "kind": kind, "side": side}))

    def decided(self, kind: str, side: str):
        for i, p in enumerate(self.pending):
            if p["kind"] == kind:
                return replace(self, pending=self.pending[:i] + self.pending[i + 1:])
        return self

    def ended(self, winner: str | None, reason: str):
        """The game is over: a state whose step is "over" (override if the step field is not `step`)."""
        return replace(self, step=OVER, pending=(), winner=winner, reason=reason)


def encode(value: Any) -> Any:
    """A state (or any part of it) as JSON-able data; the `data` field is left out. A field holding records by
    key (`dict[str, Unit]`) is saved as [key, record] pairs in its order: a snapshot is canonical JSON, whose
    objects are sorted by key, and a state decoded from it must walk its units in the order a fold keeps them
    (the order of battle), or an automated seat or a candidate list walking them would choose differently after a
    snapshot than `verify`, which folds, finds."""
    kind = type(value)
    if kind in _AS_IS:
        return value
    plan = _plan(kind)
    if plan is not None:
        return {name: _pairs(getattr(value, name)) if by_key else encode(getattr(value, name))
                for name, by_key in plan}
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(encode(v) for v in value)
    return value


def decode(cls: type, raw: dict, data: Any = None):
    """The inverse of `encode` for the dataclass `cls`, with the game's `data` put back."""
    kwargs = {name: _decode(hint, raw[name]) for name, hint in _hints(cls).items() if name in raw}
    if any(f.name == "data" for f in dataclasses.fields(cls)):
        kwargs["data"] = data
    return cls(**kwargs)


_AS_IS = frozenset({str, int, float, bool, type(None)})  # encoded as they are (their subclasses take the long way)


@cache
def _plan(cls: type) -> tuple[tuple[str, bool], ...] | None:
    """How `encode` walks an instance of `cls`, worked out once a class: each field's name and whether it holds
    records by key; None for a class that is not a dataclass (a snapshot encoded each field's type hint again for
    every record of every state: issue 26)."""
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple((name, _records_by_key(hint)) for name, hint in _hints(cls).items())


def _records_by_key(hint: Any) -> bool:
    args = typing.get_args(hint)
    return typing.get_origin(hint) is dict and len(args) == 2 and dataclasses.is_dataclass(args[1])


def _pairs(records: dict) -> list:
    return [[str(k), encode(v)] for k, v in records.items()]


@cache
def _hints(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.name != "data"}


def _decode(hint: Any, raw: Any) -> Any:
    if raw is None:
        return None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        return _decode(real[0], raw) if len(real) == 1 else raw
    if dataclasses.is_dataclass(hint):
        return decode(hint, raw)
    if origin is dict or hint is dict:
        value = args[1] if args else Any
        items = raw if isinstance(raw, list) else raw.items()  # records by key are saved as ordered pairs
        return {k: _decode(value, v) for k, v in items}
    if origin is tuple or hint is tuple:
        if args and len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in raw)
        if args:
            return tuple(_decode(a, v) for a, v in zip(args, raw, strict=True))
        return tuple(_freeze(v) for v in raw)
    if origin is list or hint is list:
        return [_decode(args[0] if args else Any, v) for v in raw]
    if origin is frozenset or hint is frozenset:
        return frozenset(_decode(args[0] if args else Any, v) for v in raw)
    return raw


def _freeze(value: Any) -> Any:
    """Untyped tuple items keep the shape they were saved from (dicts stay dicts; lists become tuples)."""
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value
