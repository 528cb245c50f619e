"""Answers remembered per immutable object (a game state, a game's movement rules), for the last few objects
asked about. Such objects are often unhashable (frozen dataclasses holding dicts), so they are found by identity;
each one remembered is kept alive while it is, so its identity is never another object's. `Kept`: answers about a
game's data by a key of values, the most recently used few, for what many positions of one game share (a reach,
the hexes in supply: the same as long as what they read of the position is the same)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any


class IdentityMemo:
    def __init__(self, size: int):
        self.size = size
        self._entries: OrderedDict[int, tuple[Any, dict]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, obj: Any) -> dict:
        """The dict of answers about `obj` (empty the first time)."""
        with self._lock:
            entry = self._entries.get(id(obj))
            if entry is None or entry[0] is not obj:
                entry = self._entries[id(obj)] = (obj, {})
                if len(self._entries) > self.size:
                    self._entries.popitem(last=False)
            else:
                self._entries.move_to_end(id(obj))
            return entry[1]

    def remembered(self, obj: Any, key: Any, compute: Callable[[], Any]) -> Any:
        """`compute()`, the first time it is asked about `obj` under `key`; the same answer after."""
        answers = self.of(obj)
        if key not in answers:
            answers[key] = compute()
        return answers[key]


class Kept:
    """Per owner (a game's data, by identity), answers by a hashable key of everything they read, the `size` most
    recently used. `answer(owner, key, compute)`: `compute()` the first time, the same answer after while kept.
    Safe to share between the server's threads."""

    def __init__(self, size: int, owners: int = 4):
        self.size = size
        self._owners = IdentityMemo(owners)
        self._lock = threading.Lock()

    def answer(self, owner: Any, key: Any, compute: Callable[[], Any]) -> Any:
        known = self._owners.of(owner)
        with self._lock:
            found = known.pop(key, _NONE)
        if found is _NONE:
            found = compute()
        with self._lock:
            known[key] = found  # the most recently used last
            while len(known) > self.size:
                del known[next(iter(known))]
        return found


_NONE = object()


class Same:
    """An object as part of a key of values, found by identity (a frozen dataclass holding dicts has no hash): two
    are equal when they wrap the same object; a key holding one keeps the object alive, so its identity is never
    another object's."""

    __slots__ = ("obj", "_id")

    def __init__(self, obj: Any):
        self.obj = obj
        self._id = id(obj)

    def __hash__(self) -> int:
        return self._id

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj

    def __repr__(self) -> str:
        return f"Same({self.obj!r})"


class ByIdentity:
    """`compute(obj)` once per object (found by identity; each one remembered is kept alive while it is, so its
    identity is never another object's), for immutable objects asked about millions of times a game: a unit as a
    view shows it, as the stacking limits read it. Forgets everything once `size` objects are remembered. No lock:
    a race computes an answer twice, never a wrong one."""

    def __init__(self, compute: Callable[[Any], Any], size: int = 8192):
        self._compute = compute
        self.size = size
        self._found: dict[int, tuple[Any, Any]] = {}

    def __call__(self, obj: Any) -> Any:
        entry = self._found.get(id(obj))
        if entry is not None and entry[0] is obj:
            return entry[1]
        value = self._compute(obj)
        if len(self._found) >= self.size:
            self._found.clear()
        self._found[id(obj)] = (obj, value)
        return value
