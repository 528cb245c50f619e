"""Answers remembered per immutable object (a game state, a game's movement rules), for the last few objects
asked about. Such objects are often unhashable (frozen dataclasses holding dicts), so they are found by identity;
each one remembered is kept alive while it is, so its identity is never another object's."""
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
